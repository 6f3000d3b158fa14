import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/index.js';
import { normalizeAlertTemplate } from './alert-template.js';
import { checkTemplateValue, splitTemplate } from './template-expressions.js';

describe('normalizeAlertTemplate', () => {
  it('keeps the current form, defaulting use_for_dedup to false and missing arrays to empty', () => {
    expect(
      normalizeAlertTemplate({
        info: [
          { label: 'Principal', value: '{{@alert.results_table.rows[0].userIdentity.arn}}', use_for_dedup: true },
          { label: 'Source IP', value: '{{ results_table.rows[0].sourceIPAddress }}' },
        ],
      }),
    ).toEqual({
      info: [
        { label: 'Principal', value: '{{@alert.results_table.rows[0].userIdentity.arn}}', useForDedup: true },
        { label: 'Source IP', value: '{{ results_table.rows[0].sourceIPAddress }}', useForDedup: false },
      ],
      actions: [],
    });
    expect(normalizeAlertTemplate({})).toEqual({ info: [], actions: [] });
  });

  it.each([
    ['@pagerduty.payload.severity', 'error'],
    ['@pagerduty.payload.severity', '{{ if(@q.count > 10, "critical", "warning") }}'],
    ['@pagerduty.dedup_key', '{{user}}'],
    ['@pagerduty.payload.summary', 'Root login by {{user}}'],
    ['@pagerduty.payload.timestamp', '2026-05-15T00:03:00Z'],
    ['@pagerduty.payload.component', 'iam'],
    ['@pagerduty.payload.custom_details.runbook', 'https://runbooks.example.com/x'],
    ['@pagerduty.client_url', 'https://vigil.example.com'],
  ])('accepts the pager override %s = %j', (label, value) => {
    expect(() => normalizeAlertTemplate({ info: [{ label, value }] })).not.toThrow();
  });

  it.each([
    [
      '@pagerduty.payload',
      'x',
      'alert_template.info[0].label',
      /^alert_template\.info\[0\]\.label "@pagerduty\.payload": payload cannot be set in a pager event: only dedup_key, .* and payload\.custom_details\.<key> can$/,
    ],
    ['@pagerduty.payload.custom_details', 'x', 'alert_template.info[0].label', /payload\.custom_details cannot be set/],
    ['@pagerduty.routing_key', 'another-service', 'alert_template.info[0].label', /routing_key cannot be set/],
    ['@pagerduty.event_action', 'resolve', 'alert_template.info[0].label', /event_action cannot be set/],
    ['@pagerduty.links', 'https://x.example.com', 'alert_template.info[0].label', /links cannot be set/],
    ['@pagerduty.payload.severty', 'error', 'alert_template.info[0].label', /payload\.severty cannot be set/],
    ['@pagerduty.payload.custom_details.__proto__', 'x', 'alert_template.info[0].label', /cannot be set/],
    ['@pagerduty.', 'x', 'alert_template.info[0].label', /"@pagerduty\.": names no field$/],
    [
      '@pagerduty.payload.severity',
      'high',
      'alert_template.info[0].value',
      /^alert_template\.info\[0\]\.value \(@pagerduty\.payload\.severity\) must be one of critical, error, warning, info, got "high"$/,
    ],
    ['@pagerduty.payload.summary', '  ', 'alert_template.info[0].value', /must not be empty$/],
    ['@pagerduty.payload.timestamp', 'yesterday', 'alert_template.info[0].value', /must be an ISO 8601 time/],
  ])('refuses the pager override %s = %j, naming %s', (label, value, field, message) => {
    let error: unknown;
    try {
      normalizeAlertTemplate({ info: [{ label, value }] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect((error as ValidationError).message).toMatch(message);
  });

  it('converts the deprecated pair arrays to the current form, item by item', () => {
    expect(
      normalizeAlertTemplate({
        info: [['User', '{{user}}'], { label: 'Count', value: '{{@q.count}}', use_for_dedup: true }],
        actions: [['Runbook', 'https://runbooks.example.com/x']],
      }),
    ).toEqual({
      info: [
        { label: 'User', value: '{{user}}', useForDedup: false },
        { label: 'Count', value: '{{@q.count}}', useForDedup: true },
      ],
      actions: [{ label: 'Runbook', value: 'https://runbooks.example.com/x' }],
    });
  });

  it.each([
    [{ info: [['only a label']] }, 'alert_template.info[0]', /\[label, value\] pair/],
    [{ info: [['a', 'b', 'c']] }, 'alert_template.info[0]', /pair/],
    [{ actions: [{ label: '', value: 'x' }] }, 'alert_template.actions[0].label', /non-empty/],
    [{ info: [{ label: 'x', value: 'a'.repeat(5000) }] }, 'alert_template.info[0].value', /at most 4096/],
    [
      {
        info: [
          { label: 'x', value: 'ok' },
          { label: 'y', value: 'user: {{ user + }}' },
        ],
      },
      'alert_template.info[1].value',
      / at 1:\d+$/,
    ],
    [{ info: Array.from({ length: 51 }, () => ['a', 'b']) }, 'alert_template.info', /at most 50/],
  ])('refuses %j naming %s', (input, field, message) => {
    const attempt = () => normalizeAlertTemplate(input as never);
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as ValidationError).field).toBe(field);
    }
  });
});

describe('template expressions', () => {
  it('splits a value into text and the expressions of its placeholders', () => {
    expect(splitTemplate('user {{ user }} from {{ip}}!')).toEqual({
      parts: [
        { kind: 'text', text: 'user ' },
        { kind: 'expression', text: ' user ', offset: 7 },
        { kind: 'text', text: ' from ' },
        { kind: 'expression', text: 'ip', offset: 23 },
        { kind: 'text', text: '!' },
      ],
    });
    expect(splitTemplate('no placeholders }} here')).toEqual({ parts: [{ kind: 'text', text: 'no placeholders }} here' }] });
    expect(splitTemplate('a {{ b')).toEqual({ unclosedAt: 2 });
  });

  it.each([
    '{{@alert.results_table.rows[0].userIdentity.arn}}',
    '{{results_table.rows[0].userIdentity.arn}}',
    '{{ field_name }}',
    '{{@alert.description}} on {{ @alert.tags[0] }}',
    'https://console.example.com/?q={{ concat(user, "@", domain) }}',
    'plain text',
    '',
  ])('accepts %j', (value) => {
    expect(() => checkTemplateValue(value, 'v')).not.toThrow();
  });

  it.each([
    ['{{ x + }}', 'expected an expression at 1:8'],
    ['ok {{ a b }}', "unexpected 'b' in the expression at 1:9"],
    ['line one\nthen {{ a b }}', "unexpected 'b' in the expression at 2:11"],
    ['{{ }}', "empty '{{ }}' at 1:1"],
    ['value {{ never closed', "unclosed '{{' at 1:7"],
  ])('refuses %j with the position inside the value', (value, message) => {
    expect(() => checkTemplateValue(value, 'alert_template.info[0].value')).toThrow(message);
  });
});

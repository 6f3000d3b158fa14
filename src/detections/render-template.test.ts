import { describe, expect, it } from 'vitest';
import { sampleAlert } from '../domain/testing/index.js';
import { renderAlertTemplate, renderTemplateValue } from './render-template.js';

const alert = sampleAlert({
  resultsTable: {
    columns: ['userIdentity.arn', 'sourceIPAddress', '@q.count', '@svc.datetime'],
    rows: [
      { 'userIdentity.arn': 'arn:aws:iam::1:user/a', sourceIPAddress: '203.0.113.7', '@q.count': 3, '@svc.datetime': '2026-11-21T11:56:00.000000000Z' },
      { 'userIdentity.arn': 'arn:aws:iam::1:user/b', sourceIPAddress: null, '@q.count': 1.5, '@svc.datetime': '2026-11-21T11:57:00.000000000Z' },
    ],
    totalRowCount: 250,
  },
});

describe('renderTemplateValue (detections.md E9)', () => {
  it.each([
    ['{{@alert.name}}', 'IAM admin policy attached'],
    ['{{ @alert.severity }} / {{@alert.severity_id}}', 'High / 4'],
    ['{{@alert.id}}|{{@alert.detection_rule_id}}|{{@alert.tenant_id}}', `${alert.id}|${alert.detectionRuleId}|acme`],
    ['{{@alert.description}}', alert.description],
    ['{{@alert.query_text}}', alert.queryText],
    ['{{@alert.detected_in_time_range.start}} to {{@alert.detected_in_time_range.end}}', '2026-11-21T11:55:00.000000000Z to 2026-11-21T12:00:00.000000000Z'],
    ['{{@alert.timestamp}}', '2026-11-21T12:00:30.123456789Z'],
    ['{{@alert.staging}}', 'false'],
    ['{{@alert.tags[1]}}', 'tactics.ta0004.privilege_escalation'],
    ['{{@alert.tags[7]}}', ''],
    ['{{@alert.results_table.total_row_count}} rows', '250 rows'],
    ['{{@alert.results_table.columns[0]}}', 'userIdentity.arn'],
    ['{{@alert.results_table.rows[0].userIdentity.arn}}', 'arn:aws:iam::1:user/a'],
    ['{{@alert.results_table.rows[1].@q.count}}', '1.5'],
    ['{{results_table.rows[1].userIdentity.arn}}', 'arn:aws:iam::1:user/b'],
    ['{{results_table.rows[0].@scnr.datetime}}', '2026-11-21T11:56:00.000000000Z'],
    ['{{userIdentity.arn}} from {{sourceIPAddress}}', 'arn:aws:iam::1:user/a from 203.0.113.7'],
    ['{{@scnr.datetime}}', '2026-11-21T11:56:00.000000000Z'],
    ['{{@scanner.datetime}}', '2026-11-21T11:56:00.000000000Z'],
    ['{{results_table.rows[0].@scanner.datetime}}', '2026-11-21T11:56:00.000000000Z'],
  ])('%s renders %j', (template, expected) => {
    expect(renderTemplateValue(template, alert)).toBe(expected);
  });

  it('renders missing values as empty strings', () => {
    expect(renderTemplateValue('[{{nope}}][{{@alert.nope}}][{{results_table.rows[9].userIdentity.arn}}][{{results_table.rows[1].sourceIPAddress}}]', alert)).toBe('[][][][]');
  });

  it('evaluates scalar expressions with the query language evaluator', () => {
    expect(renderTemplateValue('{{concat(upper(@alert.severity), ": ", @alert.name)}}', alert)).toBe('HIGH: IAM admin policy attached');
    expect(renderTemplateValue('{{@alert.results_table.rows[0].@q.count * 2 + 1}}', alert)).toBe('7');
    expect(renderTemplateValue('{{if(@alert.severity_id >= 4, "page", "ticket")}}', alert)).toBe('page');
    expect(renderTemplateValue('{{coalesce(results_table.rows[1].sourceIPAddress, "unknown")}}', alert)).toBe('unknown');
    expect(renderTemplateValue('{{@alert.name + 1}}', alert)).toBe('');
  });

  it('leaves text outside placeholders, and a lone }}, as written', () => {
    expect(renderTemplateValue('a }} b {{ "c" }} d', alert)).toBe('a }} b c d');
    expect(renderTemplateValue('no placeholders', alert)).toBe('no placeholders');
  });

  it('renders an expression with a wildcard name as empty rather than failing', () => {
    expect(renderTemplateValue('[{{*.arn}}]', alert)).toBe('[]');
  });
});

describe('renderAlertTemplate', () => {
  it('renders info with its dedup flags and actions, in order', () => {
    const rendered = renderAlertTemplate(
      {
        info: [
          { label: 'Principal', value: '{{@alert.results_table.rows[0].userIdentity.arn}}', useForDedup: true },
          { label: 'IP', value: '{{sourceIPAddress}}', useForDedup: false },
        ],
        actions: [{ label: 'Search', value: 'https://vigil.example.com/search?q={{userIdentity.arn}}' }],
      },
      alert,
    );
    expect(rendered).toEqual({
      info: [
        { label: 'Principal', value: 'arn:aws:iam::1:user/a', useForDedup: true },
        { label: 'IP', value: '203.0.113.7', useForDedup: false },
      ],
      actions: [{ label: 'Search', value: 'https://vigil.example.com/search?q=arn:aws:iam::1:user/a' }],
    });
    expect(renderAlertTemplate(null, alert)).toEqual({ info: [], actions: [] });
  });
});

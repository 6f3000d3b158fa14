import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/index.js';
import { checkRequiredRuleFields, checkRuleFields, type RuleFieldsInput } from './rule-input.js';
import { checkRuleQuery } from './rule-query-check.js';
import { validationFieldOf as fieldOf } from './testing/validation-field.js';

describe('checkRuleFields', () => {
  it('returns only the fields given, normalized', () => {
    expect(checkRuleFields({ severity: 'Information', eventSinkIds: ['a', 'b', 'a'], tags: ['x'], syncKey: null })).toEqual({
      severity: 'Informational',
      eventSinkIds: ['a', 'b'],
      tags: ['x'],
      syncKey: null,
    });
    expect(checkRuleFields({})).toEqual({});
  });

  it.each<[RuleFieldsInput, string]>([
    [{ timeRangeS: 30 }, 'time_range_s'],
    [{ timeRangeS: 90 }, 'time_range_s'],
    [{ timeRangeS: 120.5 }, 'time_range_s'],
    [{ timeRangeS: 31 * 86_400 }, 'time_range_s'],
    [{ runFrequencyS: 0 }, 'run_frequency_s'],
    [{ timeRangeS: 300, runFrequencyS: 600 }, 'run_frequency_s'],
    [{ name: '  ' }, 'name'],
    [{ name: 'a'.repeat(257) }, 'name'],
    [{ tags: ['ok', ''] }, 'tags[1]'],
    [{ tags: ['ok', 5 as never] }, 'tags[1]'],
    [{ dedupWindowS: -1 }, 'dedup_window_s'],
    [{ enabledStateOverride: 'On' as never }, 'enabled_state_override'],
    [{ severity: 'Severe' }, 'severity'],
    [{ eventSinkIds: Array.from({ length: 51 }, (_, i) => `s${i}`) }, 'event_sink_ids'],
    [{ alertTemplate: { info: [{ label: 'x', value: '{{' }] } }, 'alert_template.info[0].value'],
  ])('refuses %j naming %s', (input, field) => {
    expect(fieldOf(() => checkRuleFields(input))).toBe(field);
  });

  it('compares a new frequency or range with the one the rule keeps', () => {
    const current = { timeRangeS: 300, runFrequencyS: 60 };
    expect(fieldOf(() => checkRuleFields({ runFrequencyS: 600 }, current))).toBe('run_frequency_s');
    expect(fieldOf(() => checkRuleFields({ timeRangeS: 60 }, { timeRangeS: 300, runFrequencyS: 120 }))).toBe('time_range_s');
    // The text starts with the field the request gave, as the API's errors do.
    expect(() => checkRuleFields({ timeRangeS: 60 }, { timeRangeS: 300, runFrequencyS: 120 })).toThrow(/^time_range_s \(60\) must be at least run_frequency_s \(120\)$/);
    expect(() => checkRuleFields({ runFrequencyS: 600 }, current)).toThrow(/^run_frequency_s \(600\) must be at most time_range_s \(\d+\)$/);
    expect(checkRuleFields({ timeRangeS: 600, runFrequencyS: 600 }, current)).toEqual({ timeRangeS: 600, runFrequencyS: 600 });
  });

  it('requires the create fields of interface 4.2', () => {
    expect(fieldOf(() => checkRequiredRuleFields({ name: 'x' }))).toBe('description');
  });
});

describe('checkRuleQuery', () => {
  const indexes = [
    { id: 'i1', name: 'web', system: false },
    { id: 'i2', name: '_detections', system: true },
  ];

  it('accepts queries that parse and name known indexes, system ones included', () => {
    expect(() => checkRuleQuery('eventName: ConsoleLogin | stats count() by user', indexes)).not.toThrow();
    expect(() => checkRuleQuery('@index=_detections severity: High', indexes)).not.toThrow();
    expect(() => checkRuleQuery('*.arn: x', indexes)).not.toThrow();
  });

  it('names query_text and the position, and carries every diagnostic', () => {
    try {
      checkRuleQuery('user: bob and x != 3', indexes);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('query_text');
      expect((error as ValidationError).message).toMatch(/^'!=' is not a filter operator at 1:17/);
      expect((error as ValidationError).diagnostics.length).toBeGreaterThan(0);
    }
    expect(() => checkRuleQuery('@index=nope x', indexes)).toThrow("unknown index 'nope' at 1:8");
    expect(() => checkRuleQuery('   ', indexes)).toThrow('query_text must not be empty');
  });
});

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DetectionRule } from '../api/types.js';
import { ruleFileText, shownState } from './rule-file-text.js';

const rule: DetectionRule = {
  id: 'r1',
  tenant_id: 't',
  name: 'Admin: policy "attached"',
  description: 'line one\nline two',
  query_text: 'eventName: AttachUserPolicy # why\n| stats count() as n by user',
  time_range_s: 300,
  run_frequency_s: 60,
  debounce: true,
  alert_per_row: false,
  dedup_window_s: null,
  enabled_state_override: null,
  enabled_state_synced: 'Staging',
  severity: 'High',
  alert_template: null,
  tags: ['a', 'b'],
  sync_key: 'iam/admin',
  detection_rule_sync_id: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  last_alerted_at: null,
};

describe('a rule as a rule file', () => {
  it('holds the rule\'s fields, reading back exactly', () => {
    expect(parse(ruleFileText(rule))).toEqual({
      name: rule.name,
      description: rule.description,
      enabled: 'Staging',
      severity: 'High',
      query_text: rule.query_text,
      time_range_s: 300,
      run_frequency_s: 60,
      push_key: 'iam/admin',
      tags: ['a', 'b'],
    });
  });

  it('writes the query as a literal block, so positions in it are exact', () => {
    expect(ruleFileText(rule)).toContain('query_text: |-\n  eventName: AttachUserPolicy # why\n  | stats count() as n by user\n');
  });

  it('writes non-default switches and leaves defaults out', () => {
    const text = ruleFileText({ ...rule, debounce: false, alert_per_row: true, dedup_window_s: 0, sync_key: null, tags: [] });
    expect(parse(text)).toMatchObject({ debounce: false, alert_per_row: true, dedup_window_s: 0 });
    expect(parse(text)).not.toHaveProperty('push_key');
    expect(parse(text)).not.toHaveProperty('tags');
  });

  it('shows the override first, then the synced state, else Paused', () => {
    expect(shownState({ enabled_state_override: 'Active', enabled_state_synced: 'Staging' })).toBe('Active');
    expect(shownState({ enabled_state_override: null, enabled_state_synced: null })).toBe('Paused');
  });
});

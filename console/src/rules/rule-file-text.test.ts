import { describe, expect, it } from 'vitest';
import { editableRuleFile, shownState } from './rule-file-text.js';

describe("the rule page's file", () => {
  it('is the printed rule file followed by a commented test to fill in', () => {
    const text = editableRuleFile('name: x\nquery_text: a');
    expect(text.startsWith('name: x\nquery_text: a\n\n# tests:\n')).toBe(true);
    expect(
      text
        .split('\n')
        .slice(3)
        .every((line) => line === '' || line.startsWith('#')),
    ).toBe(true);
  });

  it('is left as it is when it holds tests already', () => {
    expect(editableRuleFile('name: x\ntests:\n  - name: t\n')).toBe('name: x\ntests:\n  - name: t\n');
  });

  it('shows the override first, then the synced state, else Paused', () => {
    expect(shownState({ enabled_state_override: 'Active', enabled_state_synced: 'Staging' })).toBe('Active');
    expect(shownState({ enabled_state_override: null, enabled_state_synced: 'Staging' })).toBe('Staging');
    expect(shownState({ enabled_state_override: null, enabled_state_synced: null })).toBe('Paused');
  });
});

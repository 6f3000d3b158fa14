import { describe, expect, it } from 'vitest';
import { effectiveState, isEnabled } from './enabled-state.js';
import { normalizeSeverity, severities, severityIds } from './severity.js';

describe('severity', () => {
  it('accepts every OCSF name as itself, and Information as Informational', () => {
    for (const name of severities) expect(normalizeSeverity(name)).toBe(name);
    expect(normalizeSeverity('Information')).toBe('Informational');
    expect(severityIds.Informational).toBe(1);
    expect(severityIds.Other).toBe(99);
  });

  it('refuses other spellings, naming the field and the allowed values', () => {
    for (const value of ['high', 'Info', 'Warning', '']) {
      expect(() => normalizeSeverity(value)).toThrow(/^severity must be one of Unknown, Informational, .*, Information, got /);
    }
  });
});

describe('enabled state', () => {
  it('is the override when set, else the synced state, else Paused', () => {
    expect(effectiveState({ enabledStateOverride: 'Staging', enabledStateSynced: 'Active' })).toBe('Staging');
    expect(effectiveState({ enabledStateOverride: null, enabledStateSynced: 'Active' })).toBe('Active');
    expect(effectiveState({ enabledStateOverride: null, enabledStateSynced: null })).toBe('Paused');
  });

  it('counts Active and Staging as enabled: both run', () => {
    expect([isEnabled('Active'), isEnabled('Staging'), isEnabled('Paused')]).toEqual([true, true, false]);
  });
});

import { describe, expect, it } from 'vitest';
import { aRule } from '../store/testing/store-fixtures.js';
import { pathOfSyncKey, planSync, syncKeyOf, type DesiredRule, type SyncedRuleFields } from './sync-plan.js';

const source = 'source-1';
const fieldsOf = (name: string, overrides: Partial<SyncedRuleFields> = {}): SyncedRuleFields => ({
  name,
  description: `the ${name} rule`,
  queryText: `eventName: ${name}`,
  timeRangeS: 300,
  runFrequencyS: 60,
  debounce: true,
  alertPerRow: false,
  dedupWindowS: null,
  enabledStateSynced: 'Active',
  severity: 'High',
  alertTemplate: { info: [{ label: 'User', value: '{{user}}', useForDedup: true }], actions: [] },
  tags: ['a', 'b'],
  eventSinkIds: ['sink-1'],
  ...overrides,
});
const synced = (path: string, fields: SyncedRuleFields) => aRule('acme', { ...fields, syncKey: syncKeyOf(source, path), detectionRuleSyncId: source, enabledStateOverride: null });
const file = (path: string, fields: SyncedRuleFields): DesiredRule => ({ path, fields });

describe('planSync', () => {
  it('creates every file of a first sync', () => {
    const files = [file('rules/a.yml', fieldsOf('a')), file('rules/b.yml', fieldsOf('b'))];
    expect(planSync(source, files, [])).toEqual({ creates: files, updates: [], unchanged: [], deletes: [] });
  });

  it('leaves identical rules alone and changes only the fields that differ', () => {
    const a = synced('rules/a.yml', fieldsOf('a'));
    const b = synced('rules/b.yml', fieldsOf('b'));
    const plan = planSync(
      source,
      [file('rules/a.yml', fieldsOf('a')), file('rules/b.yml', fieldsOf('b', { severity: 'Low', tags: ['b', 'a'], enabledStateSynced: 'Paused' }))],
      [a, b],
    );
    expect(plan.unchanged).toEqual([{ path: 'rules/a.yml', rule: a }]);
    expect(plan.updates).toEqual([{ path: 'rules/b.yml', rule: b, changes: { severity: 'Low', tags: ['b', 'a'], enabledStateSynced: 'Paused' } }]);
    expect(plan.creates).toEqual([]);
    expect(plan.deletes).toEqual([]);
  });

  it('compares templates and sinks by value, sinks in order', () => {
    const a = synced('a.yml', fieldsOf('a', { eventSinkIds: ['s1', 's2'] }));
    const sameTemplate = { actions: [], info: [{ useForDedup: true, value: '{{user}}', label: 'User' }] };
    expect(planSync(source, [file('a.yml', fieldsOf('a', { eventSinkIds: ['s1', 's2'], alertTemplate: sameTemplate }))], [a]).unchanged).toHaveLength(1);
    expect(planSync(source, [file('a.yml', fieldsOf('a', { eventSinkIds: ['s2', 's1'] }))], [a]).updates[0]?.changes).toEqual({ eventSinkIds: ['s2', 's1'] });
  });

  it('deletes rules whose file is gone; a rename is a delete and a create', () => {
    const a = synced('rules/a.yml', fieldsOf('a'));
    const b = synced('rules/b.yml', fieldsOf('b'));
    const plan = planSync(source, [file('rules/renamed-a.yml', fieldsOf('a'))], [a, b]);
    expect(plan.creates).toEqual([file('rules/renamed-a.yml', fieldsOf('a'))]);
    expect(plan.deletes).toEqual([
      { path: 'rules/a.yml', rule: a },
      { path: 'rules/b.yml', rule: b },
    ]);
  });

  it('deletes a rule of the source whose key names no file of it', () => {
    const stray = aRule('acme', { detectionRuleSyncId: source, syncKey: 'made elsewhere' });
    expect(planSync(source, [], [stray]).deletes).toEqual([{ path: null, rule: stray }]);
  });
});

describe('sync keys', () => {
  it('name the source and the path, and give the path back only for that source', () => {
    expect(syncKeyOf(source, 'rules/a.yml')).toBe('sync:source-1:rules/a.yml');
    expect(pathOfSyncKey(source, 'sync:source-1:rules/a.yml')).toBe('rules/a.yml');
    expect(pathOfSyncKey('source-2', 'sync:source-1:rules/a.yml')).toBeNull();
    expect(pathOfSyncKey(source, null)).toBeNull();
  });
});

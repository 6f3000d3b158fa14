import { describe, expect, it } from 'vitest';
import { rowIdentity, rowIdentityPlan } from './row-identity.js';

describe('rowIdentityPlan (E5 identities)', () => {
  it.each([
    ['eventName: ConsoleLogin', { kind: 'event' }],
    ['x | where a > 1 | head 5', { kind: 'event' }],
    ['x | count | where @q.count > 5', { kind: 'rule' }],
    ['x | stats count() as n', { kind: 'rule' }],
    ['x | groupbycount(user, ip)', { kind: 'columns', columns: ['user', 'ip'] }],
    ['x | stats count() as n by userIdentity.arn | where n > 2', { kind: 'columns', columns: ['userIdentity.arn'] }],
    ['x | stats count() by @scnr.source_type', { kind: 'columns', columns: ['@svc.source_type'] }],
    ['x | groupbycount(user) | rename(user as who)', { kind: 'columns', columns: ['who'] }],
    ['x | groupbycount(user) | table(@q.count)', { kind: 'row' }],
    ['x | groupbycount(user) | eval user = "x"', { kind: 'row' }],
    ['x | groupbycount(user) | table(user, @q.count)', { kind: 'columns', columns: ['user'] }],
    ['x |', { kind: 'row' }],
  ])('%s → %j', (query, plan) => {
    expect(rowIdentityPlan(query)).toEqual(plan);
  });

  it('gives equal identities to equal groups whatever the other cells hold', () => {
    const plan = rowIdentityPlan('x | groupbycount(user)');
    const a = rowIdentity(plan, { rowId: null, columns: { user: 'a', '@q.count': 1 } });
    expect(rowIdentity(plan, { rowId: null, columns: { user: 'a', '@q.count': 7 } })).toBe(a);
    expect(rowIdentity(plan, { rowId: null, columns: { user: 'b', '@q.count': 1 } })).not.toBe(a);
    const events = rowIdentityPlan('x');
    expect(rowIdentity(events, { rowId: { t: '1', s: '2' }, columns: { user: 'a' } })).not.toBe(rowIdentity(events, { rowId: { t: '1', s: '3' }, columns: { user: 'a' } }));
  });
});

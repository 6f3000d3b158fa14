import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow } from '../parser/parser.js';
import { rowIdentityPlan } from './row-identity.js';

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
  ])('%s → %j', (query, plan) => {
    expect(rowIdentityPlan(parseQueryOrThrow(query).pipeline)).toEqual(plan);
  });
});

import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow, rowIdentityPlan } from '../query/index.js';
import { rowIdentity } from './row-identity.js';

const planOf = (text: string) => rowIdentityPlan(parseQueryOrThrow(text).pipeline);

describe('rowIdentity (E5 identities)', () => {
  it('gives equal identities to equal groups whatever the other cells hold', () => {
    const plan = planOf('x | groupbycount(user)');
    const a = rowIdentity(plan, { rowId: null, columns: { user: 'a', '@q.count': 1 } });
    expect(rowIdentity(plan, { rowId: null, columns: { user: 'a', '@q.count': 7 } })).toBe(a);
    expect(rowIdentity(plan, { rowId: null, columns: { user: 'b', '@q.count': 1 } })).not.toBe(a);
    const events = planOf('x');
    expect(rowIdentity(events, { rowId: { t: '1', s: '2' }, columns: { user: 'a' } })).not.toBe(rowIdentity(events, { rowId: { t: '1', s: '3' }, columns: { user: 'a' } }));
  });
});

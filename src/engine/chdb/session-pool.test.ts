import type { Session } from 'chdb';
import { describe, expect, it } from 'vitest';
import type { Workload } from '../engine.js';
import { SessionPool, sessionShares, type SessionLease } from './session-pool.js';

// The pool only lends sessions and closes them; these stand-ins are told apart by name.
const fakeSessions = (n: number): Session[] => Array.from({ length: n }, (_, i) => ({ name: `s${i}`, close() {} }) as unknown as Session);
const adhoc = (tenant: string): Workload => ({ kind: 'adhoc', tenant });
const detection: Workload = { kind: 'detection' };

/** Asks for a session and records when (in what order) it was granted. */
function ask(pool: SessionPool, who: string, workload: Workload | undefined, granted: string[], signal?: AbortSignal) {
  const lease = pool.acquire('test', signal, workload).then((l) => {
    granted.push(who);
    return l;
  });
  lease.catch(() => {});
  return lease;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('sessionShares', () => {
  it.each([
    [1, { adhoc: 1, adhocPerTenant: 1, detection: 1 }],
    [2, { adhoc: 1, adhocPerTenant: 1, detection: 1 }],
    [3, { adhoc: 2, adhocPerTenant: 1, detection: 2 }],
    [4, { adhoc: 3, adhocPerTenant: 2, detection: 3 }],
    [8, { adhoc: 6, adhocPerTenant: 3, detection: 7 }],
  ])('of %i sessions: %o', (size, shares) => {
    expect(sessionShares(size)).toEqual(shares);
  });

  it('always leaves another tenant a session, and detection windows one ad hoc queries cannot take, from three sessions on', () => {
    for (let size = 3; size <= 64; size++) {
      const s = sessionShares(size);
      expect(s.adhocPerTenant).toBeLessThan(s.adhoc);
      expect(s.adhoc).toBeLessThan(size);
      expect(s.detection).toBeLessThan(size);
    }
  });
});

describe('SessionPool', () => {
  it('lets one tenant flooding ad hoc queries hold 2 of 4 sessions; another tenant and a detection window are served at once', async () => {
    const pool = new SessionPool(fakeSessions(4));
    const granted: string[] = [];
    const flood = ['a1', 'a2', 'a3', 'a4', 'a5'].map((who) => ask(pool, who, adhoc('A'), granted));
    const b1 = ask(pool, 'b1', adhoc('B'), granted);
    const b2 = ask(pool, 'b2', adhoc('B'), granted);
    const window = ask(pool, 'window', detection, granted);
    await settle();
    expect(granted).toEqual(['a1', 'a2', 'b1', 'window']);
    expect(pool.heldBy('A')).toBe(2);

    // A and B now hold one each: the earlier waiter goes first.
    ((await flood[0]) as SessionLease).release();
    await settle();
    expect(granted.at(-1)).toBe('a3');
    // A holds its share (a2, a3): B's query goes first, though A's waited longer.
    (await b1).release();
    await settle();
    expect(granted.at(-1)).toBe('b2');
    (await window).release();
    await settle();
    expect(granted).toHaveLength(6); // the detection window's session stays free of ad hoc work
    void b2;
  });

  it("serves the service's own statements (no workload) before any ad hoc waiter, in any session", async () => {
    const pool = new SessionPool(fakeSessions(2));
    const granted: string[] = [];
    const first = ask(pool, 'a1', adhoc('A'), granted);
    const second = ask(pool, 'a2', adhoc('A'), granted);
    const insert = ask(pool, 'insert', undefined, granted);
    await settle();
    expect(granted).toEqual(['a1', 'insert']);
    (await first).release();
    await settle();
    expect(granted).toEqual(['a1', 'insert', 'a2']);
    void second;
  });

  it('keeps a session from detection windows for ad hoc queries', async () => {
    const pool = new SessionPool(fakeSessions(4));
    const granted: string[] = [];
    for (const who of ['w1', 'w2', 'w3', 'w4']) void ask(pool, who, detection, granted);
    void ask(pool, 'a1', adhoc('A'), granted);
    await settle();
    expect(granted).toEqual(['w1', 'w2', 'w3', 'a1']);
  });

  it('forgets a waiter whose wait is aborted, and the share it would have taken stays free', async () => {
    const pool = new SessionPool(fakeSessions(3));
    const granted: string[] = [];
    const a1 = ask(pool, 'a1', adhoc('A'), granted);
    const abort = new AbortController();
    const a2 = ask(pool, 'a2', adhoc('A'), granted, abort.signal);
    await settle();
    abort.abort();
    await expect(a2).rejects.toThrow(/cancelled/);
    (await a1).release();
    void ask(pool, 'b1', adhoc('B'), granted);
    await settle();
    expect(granted).toEqual(['a1', 'b1']);
  });
});

import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../core/index.js';
import { FairSlots } from './fair-slots.js';

/** Work that finishes when told to, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    work: async () => {
      log.push(name);
      await opened;
    },
    open,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairSlots', () => {
  it('runs at most the per-tenant share at once and starts waiting work as slots free', async () => {
    const slots = new FairSlots('work', { maxConcurrent: 10, maxConcurrentPerTenant: 2, maxQueuedPerTenant: 5 });
    const log: string[] = [];
    const gates = ['a1', 'a2', 'a3'].map((name) => gate(log, name));
    const runs = gates.map((g) => slots.run('a', g.work));
    await tick();
    expect(log).toEqual(['a1', 'a2']);
    gates[0]!.open();
    await tick();
    expect(log).toEqual(['a1', 'a2', 'a3']);
    gates[1]!.open();
    gates[2]!.open();
    await Promise.all(runs);
  });

  it('gives a freed slot to the next tenant in turn, so a flood from one does not hold up another', async () => {
    const slots = new FairSlots('work', { maxConcurrent: 1, maxConcurrentPerTenant: 1, maxQueuedPerTenant: 10 });
    const log: string[] = [];
    const first = gate(log, 'a0');
    const running = slots.run('a', first.work);
    const flood = ['a1', 'a2', 'a3'].map((name) => gate(log, name));
    const other = gate(log, 'b1');
    const floodRuns = flood.map((g) => slots.run('a', g.work));
    const otherRun = slots.run('b', other.work);
    await tick();
    first.open();
    await running;
    await tick();
    expect(log).toEqual(['a0', 'a1']);
    flood[0]!.open();
    await tick();
    expect(log).toEqual(['a0', 'a1', 'b1']); // b's turn before a's second waiting request
    other.open();
    for (const g of flood) g.open();
    await Promise.all([...floodRuns, otherRun]);
    expect(log).toEqual(['a0', 'a1', 'b1', 'a2', 'a3']);
  });

  it('refuses a tenant whose queue is full, with a retry hint, without touching another tenant', async () => {
    const slots = new FairSlots('shipper requests', { maxConcurrent: 1, maxConcurrentPerTenant: 1, maxQueuedPerTenant: 1 });
    const log: string[] = [];
    const g1 = gate(log, 'a1');
    const g2 = gate(log, 'a2');
    const r1 = slots.run('a', g1.work);
    const r2 = slots.run('a', g2.work);
    const refused = await slots.run('a', async () => 'never').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).retryAfterS).toBeGreaterThan(0);
    const b = slots.run('b', async () => 'b ran');
    g1.open();
    g2.open();
    await Promise.all([r1, r2]);
    expect(await b).toBe('b ran');
  });

  it('frees the slot when the work fails', async () => {
    const slots = new FairSlots('work', { maxConcurrent: 1, maxConcurrentPerTenant: 1, maxQueuedPerTenant: 1 });
    await expect(
      slots.run('a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await slots.run('a', async () => 'next')).toBe('next');
  });
});

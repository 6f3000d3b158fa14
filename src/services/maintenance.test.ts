import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '../core/index.js';
import { WorkLeases } from '../detections/index.js';
import type { Engine } from '../engine/index.js';
import type { Store } from '../store/index.js';
import { createSqliteStore } from '../store/sqlite/index.js';
import { Maintenance } from './maintenance.js';
import type { TenantService } from './tenant-service.js';

// Maintenance of servers sharing one store (docs/scale-out.md): only the holder of the
// `maintenance` lease works. The store is empty, so the audit, purge and retention tasks find
// nothing and never reach the engine or tenants (neither is given); the last task, the sweep
// hook, tells which process ran.
describe('maintenance of several processes on one store', () => {
  let store: Store;
  const clock = new ManualClock(1_700_000_000_000);
  const runs: string[] = [];

  beforeEach(async () => {
    store = await createSqliteStore(':memory:');
    await store.migrate();
    runs.length = 0;
  });
  afterEach(() => store.close());

  function processNamed(name: string): Maintenance {
    return new Maintenance(store, null as unknown as Engine, null as unknown as TenantService, clock, silentLogger, {
      leases: new WorkLeases(store.leases, name, clock),
      sweepRuleTestLeftovers: async () => {
        runs.push(name);
        return 0;
      },
    });
  }

  it('runs in one process only, which keeps it from run to run', async () => {
    const a = processNamed('a');
    const b = processNamed('b');
    await a.runOnce();
    await b.runOnce();
    clock.advance(60_000);
    await b.runOnce();
    await a.runOnce();
    expect(runs).toEqual(['a', 'a']);
  });

  it('is taken over at once from a process that stops, and after the lease from one that died', async () => {
    const a = processNamed('a');
    const b = processNamed('b');
    const c = processNamed('c');
    await a.runOnce();
    await a.stop();
    await b.runOnce();
    await c.runOnce();
    expect(runs).toEqual(['a', 'b']);
    // b dies without a word: c waits out the lease (10 minutes unless start() set the interval).
    clock.advance(9 * 60_000);
    await c.runOnce();
    clock.advance(61_000);
    await c.runOnce();
    expect(runs).toEqual(['a', 'b', 'c']);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import type { Engine, FieldInfo } from '../engine/index.js';
import { FieldCatalogCache } from './field-catalog-cache.js';

const day = 86_400_000;
const d0 = Date.parse('2026-11-20T00:00:00Z');

/** An engine whose catalog is a list the test changes; it counts the reads. */
function fakeEngine(catalog: FieldInfo[]) {
  const reads: { fromMs?: number; toMs?: number }[] = [];
  let gate: Promise<void> = Promise.resolve();
  const engine = {
    fieldCatalog: async (_tenant: string, _ids: readonly string[], fromMs?: number, toMs?: number) => {
      reads.push({ fromMs, toMs });
      const rows = [...catalog];
      await gate;
      return rows;
    },
  } as unknown as Engine;
  const hold = (until: Promise<void>): void => {
    gate = until;
  };
  return { engine, reads, catalog, hold };
}

describe('FieldCatalogCache', () => {
  it('serves paths and types from one read, reused until the reuse time passes', async () => {
    const fake = fakeEngine([{ path: 'n', types: ['Int64'], rows: 1 }]);
    const clock = new ManualClock(d0);
    const cache = new FieldCatalogCache(fake.engine, clock, 5000);
    const fields = await cache.fields('t', ['i'], d0, d0 + day);
    expect(fields.paths).toEqual(['n']);
    expect(fields.types?.get('n')).toEqual(['Int64']);
    clock.advance(4999);
    await cache.fields('t', ['i'], d0, d0 + day);
    expect(fake.reads).toHaveLength(1);
    clock.advance(1);
    await cache.fields('t', ['i'], d0, d0 + day);
    expect(fake.reads).toHaveLength(2);
  });

  it('reuses a read only for ranges over the same catalog days (the end is exclusive)', async () => {
    const fake = fakeEngine([]);
    const cache = new FieldCatalogCache(fake.engine, new ManualClock(d0));
    await cache.fields('t', ['i'], d0, d0 + day); // one day: d0
    await cache.fields('t', ['i'], d0 + 5, d0 + day - 5); // the same day
    expect(fake.reads).toHaveLength(1);
    await cache.fields('t', ['i'], d0, d0 + day + 1); // reaches into the next day
    expect(fake.reads).toHaveLength(2);
  });

  it('gives no types while a write of the tenant is in flight, and reads anew once it ended', async () => {
    const fake = fakeEngine([{ path: 'n', types: ['Int64'], rows: 1 }]);
    const cache = new FieldCatalogCache(fake.engine, new ManualClock(d0));
    await cache.fields('t', ['i'], d0, d0 + day);
    const ended = cache.writing('t');
    const during = await cache.fields('t', ['i'], d0, d0 + day);
    expect(during).toEqual({ paths: ['n'], types: null });
    expect((await cache.fields('other', ['i'], d0, d0 + day)).types).not.toBeNull();
    fake.catalog.push({ path: 's', types: ['String'], rows: 1 });
    ended();
    ended(); // idempotent: a second call does not end another write
    const after = await cache.fields('t', ['i'], d0, d0 + day);
    expect(after.paths).toEqual(['n', 's']);
    expect(after.types?.get('s')).toEqual(['String']);
  });

  it('gives no types from a read a write began or ended during', async () => {
    const fake = fakeEngine([{ path: 'n', types: ['Int64'], rows: 1 }]);
    const cache = new FieldCatalogCache(fake.engine, new ManualClock(d0));
    let release = (): void => {};
    fake.hold(new Promise((resolve) => (release = resolve)));
    const reading = cache.fields('t', ['i'], d0, d0 + day);
    const ended = cache.writing('t');
    ended();
    release();
    expect((await reading).types).toBeNull();
  });

  it('gives no types for a range reaching outside the days the catalog can name', async () => {
    const cache = new FieldCatalogCache(fakeEngine([{ path: 'n', types: ['Int64'], rows: 1 }]).engine, new ManualClock(d0));
    expect((await cache.fields('t', ['i'], Date.parse('1900-01-01T00:00:00Z'), d0)).types).toBeNull();
    expect((await cache.fields('t', ['i'], d0, Date.parse('2200-01-01T00:00:00Z'))).types).toBeNull();
    expect((await cache.fields('t', ['i'], 0, d0)).types).not.toBeNull();
  });
});

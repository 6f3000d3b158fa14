import { describe, expect, it } from 'vitest';
import type { TimeSpan } from './engine.js';
import { TimeSpanCache } from './time-span-cache.js';

const span = (minTsNs: bigint, maxTsNs: bigint): TimeSpan => ({ minTsNs, maxTsNs });

/** A stand-in for the time_extents table: counts reads, and can run something in the middle of one. */
function table(rows: Record<string, TimeSpan>) {
  const reads: string[][] = [];
  let during: (() => void) | null = null;
  const read = async (ids: readonly string[]) => {
    reads.push([...ids]);
    const answer = new Map(ids.filter((id) => rows[id] !== undefined).map((id) => [id, rows[id] as TimeSpan]));
    await Promise.resolve();
    during?.();
    during = null;
    return answer;
  };
  return { read, reads, meanwhile: (f: () => void) => (during = f) };
}

describe('TimeSpanCache', () => {
  it('reads each index from the table once and joins the spans of the indexes asked for', async () => {
    const cache = new TimeSpanCache();
    const t = table({ a: span(10n, 20n), b: span(5n, 12n) });
    expect(await cache.span('acme', ['a', 'b', 'c'], t.read)).toEqual(span(5n, 20n));
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(10n, 20n));
    expect(await cache.span('acme', ['c'], t.read)).toBeNull();
    expect(t.reads).toEqual([['a', 'b', 'c']]);
  });

  it('keeps tenants apart', async () => {
    const cache = new TimeSpanCache();
    cache.widen([{ tenant: 'other', indexId: 'a', minTsNs: 1n, maxTsNs: 99n }]);
    expect(await cache.span('acme', ['a'], table({ a: span(10n, 20n) }).read)).toEqual(span(10n, 20n));
  });

  it('widens known spans before the table has the extent', async () => {
    const cache = new TimeSpanCache();
    const t = table({ a: span(10n, 20n) });
    await cache.span('acme', ['a'], t.read);
    cache.widen([{ tenant: 'acme', indexId: 'a', minTsNs: 15n, maxTsNs: 30n }]);
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(10n, 30n));
    expect(t.reads).toHaveLength(1);
  });

  it('a table read that raced an insert keeps the insert’s extent: never narrower than what was written', async () => {
    const cache = new TimeSpanCache();
    const t = table({ a: span(10n, 20n) });
    // The insert widens while the read is under way, after the table answered without its row.
    t.meanwhile(() => cache.widen([{ tenant: 'acme', indexId: 'a', minTsNs: 40n, maxTsNs: 50n }]));
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(10n, 50n));
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(10n, 50n));
    // An extent widened before the first read counts with the table's, which is still read.
    cache.widen([{ tenant: 'acme', indexId: 'new', minTsNs: 1n, maxTsNs: 2n }]);
    expect(await cache.span('acme', ['new'], table({ new: span(3n, 4n) }).read)).toEqual(span(1n, 4n));
  });

  it('forgets a deleted index, which is read again', async () => {
    const cache = new TimeSpanCache();
    await cache.span('acme', ['a'], table({ a: span(10n, 20n) }).read);
    cache.forget('acme', 'a');
    expect(await cache.span('acme', ['a'], table({}).read)).toBeNull();
  });

  it('is one per store in a process', () => {
    expect(TimeSpanCache.of('/data/engine')).toBe(TimeSpanCache.of('/data/engine'));
    expect(TimeSpanCache.of('/data/engine')).not.toBe(TimeSpanCache.of('/other/engine'));
  });
});

describe('TimeSpanCache after retention', () => {
  const widen = (cache: TimeSpanCache, minTsNs: bigint, maxTsNs: bigint) => cache.widen([{ tenant: 'acme', indexId: 'a', minTsNs, maxTsNs }]);

  it('starts at the cutoff once the events before it are deleted', async () => {
    const cache = new TimeSpanCache();
    const t = table({ a: span(10n, 50n) });
    await cache.span('acme', ['a'], t.read);
    await cache.narrowAfter('acme', 'a', 30n, async () => {});
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(30n, 50n));
    // A cutoff before the span changes nothing; one past its end leaves nothing.
    await cache.narrowAfter('acme', 'a', 5n, async () => {});
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(30n, 50n));
    await cache.narrowAfter('acme', 'a', 60n, async () => {});
    expect(await cache.span('acme', ['a'], t.read)).toBeNull();
  });

  it('keeps what inserts widened while the delete ran, before the cutoff too', async () => {
    const cache = new TimeSpanCache();
    await cache.span('acme', ['a'], table({ a: span(10n, 50n) }).read);
    await cache.narrowAfter('acme', 'a', 30n, async () => widen(cache, 20n, 25n));
    expect(await cache.span('acme', ['a'], table({}).read)).toEqual(span(20n, 50n));
    const other = new TimeSpanCache();
    await other.span('acme', ['a'], table({ a: span(10n, 20n) }).read);
    await other.narrowAfter('acme', 'a', 30n, async () => widen(other, 40n, 45n));
    expect(await other.span('acme', ['a'], table({}).read)).toEqual(span(30n, 45n));
  });

  it('does not narrow when the delete fails, or when the span was never read', async () => {
    const cache = new TimeSpanCache();
    const t = table({ a: span(10n, 50n) });
    await cache.span('acme', ['a'], t.read);
    await expect(cache.narrowAfter('acme', 'a', 30n, async () => Promise.reject(new Error('engine down')))).rejects.toThrow('engine down');
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(10n, 50n));
    const unread = new TimeSpanCache();
    await unread.narrowAfter('acme', 'a', 30n, async () => {});
    expect(await unread.span('acme', ['a'], t.read)).toEqual(span(10n, 50n));
  });
});

describe('TimeSpanCache: what the time_extents table holds', () => {
  const extent = (indexId: string, minTsNs: bigint, maxTsNs: bigint, tenant = 'acme') => ({ tenant, indexId, minTsNs, maxTsNs });
  /** An insert as the engine makes it: widen, write the rows not yet held, note them. */
  const insert = (cache: TimeSpanCache, extents: ReturnType<typeof extent>[]) => {
    cache.widen(extents);
    const written = cache.unrecorded(extents);
    cache.recorded(extents);
    return written;
  };

  it('writes an extent until the table holds a span around it, then leaves it out', () => {
    const cache = new TimeSpanCache();
    expect(insert(cache, [extent('a', 10n, 20n)])).toEqual([extent('a', 10n, 20n)]);
    expect(insert(cache, [extent('a', 10n, 20n), extent('a', 12n, 18n)])).toEqual([]);
    // Reaching past either end, in another index or another tenant: written.
    const outside = [extent('a', 9n, 15n), extent('a', 15n, 21n), extent('b', 12n, 18n), extent('a', 12n, 18n, 'other')];
    expect(cache.unrecorded(outside)).toEqual(outside);
  });

  it('counts a span read from the table, but not an extent widened whose insert has not ended', async () => {
    const cache = new TimeSpanCache();
    await cache.span('acme', ['a'], table({ a: span(10n, 20n) }).read);
    expect(cache.unrecorded([extent('a', 11n, 19n)])).toEqual([]);
    cache.widen([extent('a', 30n, 40n)]); // its insert is under way, or failed
    expect(cache.unrecorded([extent('a', 31n, 39n)])).toEqual([extent('a', 31n, 39n)]);
  });

  it('writes again after the index was deleted, even for an insert that ended after the delete', () => {
    const cache = new TimeSpanCache();
    insert(cache, [extent('a', 10n, 20n)]);
    cache.widen([extent('a', 12n, 13n)]);
    cache.forget('acme', 'a');
    cache.recorded([extent('a', 12n, 13n)]);
    expect(cache.unrecorded([extent('a', 12n, 13n)])).toEqual([extent('a', 12n, 13n)]);
  });

  it('keeps what the table holds when retention narrows the span: the table is not narrowed', async () => {
    const cache = new TimeSpanCache();
    const t = table({ a: span(10n, 50n) });
    await cache.span('acme', ['a'], t.read);
    await cache.narrowAfter('acme', 'a', 30n, async () => {});
    // A late event before the cutoff widens the span in memory; the table's row has it already.
    expect(insert(cache, [extent('a', 15n, 16n)])).toEqual([]);
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(15n, 50n));
  });
});

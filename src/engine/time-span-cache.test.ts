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

describe('TimeSpanCache: the extent rows an insert writes', () => {
  const at = (time: string): bigint => BigInt(Date.parse(`2024-05-01T${time}Z`)) * 1_000_000n;
  const extent = (indexId: string, from: string, to: string, tenant = 'acme') => ({ tenant, indexId, minTsNs: at(from), maxTsNs: at(to) });
  /** An insert as the engine makes it: widen, write the rows asked for, note them once written. */
  const insert = (cache: TimeSpanCache, extents: ReturnType<typeof extent>[]) => {
    cache.widen(extents);
    const rows = cache.rowsToWrite(extents);
    cache.recorded(rows);
    return rows;
  };

  it('writes an extent widened to whole minutes, then none for extents inside those minutes', () => {
    const cache = new TimeSpanCache();
    expect(insert(cache, [extent('a', '10:00:10', '10:59:50')])).toEqual([extent('a', '10:00:00', '11:00:00')]);
    expect(insert(cache, [extent('a', '10:00:00', '10:59:59.999'), extent('a', '10:30:00', '10:30:00')])).toEqual([]);
    // Reaching past either end, in another index or another tenant: written.
    const outside = [
      extent('a', '09:59:59', '10:30:00'),
      extent('a', '10:30:00', '11:00:00.001'),
      extent('b', '10:30:00', '10:31:00'),
      extent('a', '10:30:00', '10:31:00', 'other'),
    ];
    expect(cache.rowsToWrite(outside)).toEqual([
      extent('a', '09:59:00', '10:30:00'),
      extent('a', '10:30:00', '11:01:00'),
      extent('b', '10:30:00', '10:31:00'),
      extent('a', '10:30:00', '10:31:00', 'other'),
    ]);
  });

  it('rounds times before 1970 down, and stays within what a DateTime64(9) holds', () => {
    const cache = new TimeSpanCache();
    const early = { tenant: 'acme', indexId: 'a', minTsNs: -500_000_000n, maxTsNs: -500_000_000n };
    expect(cache.rowsToWrite([early])).toEqual([{ ...early, minTsNs: -60_000_000_000n, maxTsNs: 0n }]);
    const last = 2n ** 63n - 1n;
    const late = { tenant: 'acme', indexId: 'b', minTsNs: last - 1n, maxTsNs: last };
    expect(cache.rowsToWrite([late])).toEqual([{ ...late, minTsNs: ((last - 1n) / 60_000_000_000n) * 60_000_000_000n }]);
  });

  it('counts a span read from the table, but not an extent widened whose insert has not ended', async () => {
    const cache = new TimeSpanCache();
    await cache.span('acme', ['a'], table({ a: span(at('10:00:00'), at('11:00:00')) }).read);
    expect(cache.rowsToWrite([extent('a', '10:10:00', '10:20:00')])).toEqual([]);
    cache.widen([extent('a', '12:00:00', '13:00:00')]); // its insert is under way, or failed
    expect(cache.rowsToWrite([extent('a', '12:10:00', '12:20:00')])).toEqual([extent('a', '12:10:00', '12:20:00')]);
  });

  it('writes again after the index was deleted, even for an insert that ended after the delete', () => {
    const cache = new TimeSpanCache();
    insert(cache, [extent('a', '10:00:00', '11:00:00')]);
    cache.widen([extent('a', '10:10:00', '10:20:00')]);
    cache.forget('acme', 'a');
    cache.recorded([extent('a', '10:10:00', '10:20:00')]);
    expect(cache.rowsToWrite([extent('a', '10:10:00', '10:20:00')])).toEqual([extent('a', '10:10:00', '10:20:00')]);
  });

  it('keeps what the table holds when retention narrows the span: the table is not narrowed', async () => {
    const cache = new TimeSpanCache();
    const t = table({ a: span(at('10:00:00'), at('11:00:00')) });
    await cache.span('acme', ['a'], t.read);
    await cache.narrowAfter('acme', 'a', at('10:30:00'), async () => {});
    // A late event before the cutoff widens the span in memory; the table's row holds it already.
    expect(insert(cache, [extent('a', '10:15:00', '10:15:01')])).toEqual([]);
    expect(await cache.span('acme', ['a'], t.read)).toEqual(span(at('10:15:00'), at('11:00:00')));
  });
});

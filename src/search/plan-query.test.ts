import { describe, expect, it } from 'vitest';
import type { IndexInfo } from '../query/index.js';
import { planQuery, type CatalogFields, type FieldCatalogSource } from './plan-query.js';

const indexes: IndexInfo[] = [{ id: 'i-main', name: 'main', system: false }];
const startNs = 1_763_683_200_000_000_000n; // 2025-11-21T00:00:00Z
const endNs = startNs + 3_600_000_000_000n;

/** A catalog with `n` stored only as Int64 and `s` only as String; it records every read. */
function fakeCatalog(
  types: CatalogFields['types'] = new Map([
    ['n', ['Int64']],
    ['s', ['String']],
  ]),
  usable = true,
) {
  const reads: { fromMs: number; toMs: number }[] = [];
  const source: FieldCatalogSource = {
    fields: async (_tenant, _ids, fromMs, toMs) => {
      reads.push({ fromMs, toMs });
      return { paths: ['n', 's'], types };
    },
    typesUsable: () => usable,
    // One lineage of maps without slots: columns read from the rest maps, which these tests look for.
    storedLayout: async () => ({ legacy: false, mapRanges: [[65_536n, 131_071n]], slots: new Map(), slotted: new Set() }),
  };
  return { source, reads };
}

const plan = (text: string, source: FieldCatalogSource, extra: { useFieldTypes?: boolean; startNs?: bigint; endNs?: bigint } = {}) =>
  planQuery({ tenant: 'acme', text, indexes, startNs, endNs, ...extra }, source);

describe('planQuery and the field catalog', () => {
  it('reads no catalog for an event search over plain columns without comparisons', async () => {
    const catalog = fakeCatalog();
    await plan('s: x n = 1', catalog.source, { useFieldTypes: true });
    expect(catalog.reads).toHaveLength(0);
  });

  it('reads the catalog for a comparison, which then reads only the variants the column holds', async () => {
    const catalog = fakeCatalog();
    const { compiled } = await plan('s: x n > 1', catalog.source, { useFieldTypes: true });
    expect(catalog.reads).toHaveLength(1);
    expect(compiled.sql).toContain("coalesce(rest_n['n'] > 1, 0)");
    expect(compiled.sql).not.toContain("rest_s['n']");
    // rule windows (useFieldTypes off) keep reading every variant
    const untyped = await plan('s: x n > 1', fakeCatalog().source, {});
    expect(untyped.compiled.sql).toContain("rest_s['n']");
  });

  it('reads the catalog for an aggregation, and reads only the variants each column holds', async () => {
    const catalog = fakeCatalog();
    const { compiled } = await plan('s: x | stats count() by n', catalog.source, { useFieldTypes: true });
    expect(catalog.reads).toHaveLength(1);
    expect(compiled.sql).toContain("rest_n['n'] AS");
    expect(compiled.sql).not.toContain("rest_s['n']");
    expect(compiled.sql).not.toContain("rest_n['s']");
  });

  it('without useFieldTypes (rule windows), reads no catalog for an aggregation and reads every variant', async () => {
    const catalog = fakeCatalog();
    const { compiled } = await plan('s: x | stats count() by n', catalog.source);
    expect(catalog.reads).toHaveLength(0);
    expect(compiled.sql).toContain("rest_s['n']");
  });

  it('reads every variant when the catalog does not trust its types, or only wildcards need it', async () => {
    const untrusted = await plan('* | groupbycount n', fakeCatalog(null).source, { useFieldTypes: true });
    expect(untrusted.compiled.sql).toContain("rest_s['n']");
    const catalog = fakeCatalog();
    const wildcard = await plan('*: x | table(n)', catalog.source, { useFieldTypes: true });
    expect(catalog.reads).toHaveLength(1);
    expect(wildcard.compiled.sql).toContain("rest_s['n']");
  });

  it('skips the catalog read of an aggregation when its types could not be used (a write in flight), unless wildcards need it', async () => {
    const catalog = fakeCatalog(undefined, false);
    const { compiled } = await plan('s: x | stats count() by n', catalog.source, { useFieldTypes: true });
    expect(catalog.reads).toHaveLength(0);
    expect(compiled.sql).toContain("rest_s['n']");
    await plan('*: x | stats count() by n', catalog.source, { useFieldTypes: true });
    expect(catalog.reads).toHaveLength(1);
  });

  it('asks for whole milliseconds covering the range, so its catalog days hold every event in it', async () => {
    const catalog = fakeCatalog();
    await plan('* | count', catalog.source, { useFieldTypes: true, startNs: startNs - 1n, endNs: endNs + 1n });
    await plan('* | count', catalog.source, { useFieldTypes: true, startNs: -1_500_000n, endNs: -500_000n });
    expect(catalog.reads).toEqual([
      { fromMs: Number(startNs / 1_000_000n) - 1, toMs: Number(endNs / 1_000_000n) + 1 },
      { fromMs: -2, toMs: 0 },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import { SearchService } from './search-service.js';

const startNs = 1_763_683_200_000_000_000n;
const range = { startNs, endNs: startNs + 60_000_000_000n };

/** A service over an engine that only answers catalog reads, and counts them. */
function serviceWithCatalog() {
  let reads = 0;
  const engine = {
    fieldCatalog: async () => {
      reads++;
      return [{ path: 'n', types: ['Int64'], rows: 1 }];
    },
    // One lineage of maps (ids 65536-131071) that holds the numbers of n in slot n0 from its first version.
    fieldLayout: async () => ({
      legacy: false,
      mapRanges: [[65_536n, 131_071n]],
      slots: new Map([['n', [{ column: 'n0', kind: 'number', mapRanges: [[65_536n, 131_071n]], shared: false }]]]),
      slotted: new Set(['n:n']),
    }),
  } as unknown as Engine;
  const service = new SearchService(engine, async () => [{ id: 'i-main', name: 'main', system: false }], new ManualClock(Number(startNs / 1_000_000n)), silentLogger);
  return { service, reads: () => reads };
}

describe('SearchService and the field catalog types', () => {
  it('plans a rule window (short range) without reading the catalog, so it reads every variant', async () => {
    const { service, reads } = serviceWithCatalog();
    const query = await service.windows.prepare({ tenantId: 'acme', queryText: '* | groupbycount n', ...range, maxRows: 100 });
    expect(reads()).toBe(0);
    expect(query.plan.analyzed.fieldTypes).toBeUndefined();
  });

  it('plans an ad hoc aggregation with the catalog types, unless a write of the tenant is in flight', async () => {
    const { service, reads } = serviceWithCatalog();
    const typed = await service.explain('acme', '* | groupbycount n', range);
    expect(reads()).toBe(1);
    // Numbers only (Int64), all in slot n0: read from it alone, neither the rest maps nor a string slot.
    expect(typed.plan.compiled.sql).toMatch(/\bn0 AS /);
    expect(typed.plan.compiled.sql).not.toContain('rest_');
    const ended = service.writingEvents('acme');
    const during = await service.explain('acme', '* | groupbycount n', range);
    expect(during.plan.analyzed.fieldTypes).toBeUndefined();
    ended();
    expect((await service.explain('acme', '* | groupbycount n', range)).plan.analyzed.fieldTypes?.get('n')).toEqual(['Int64']);
  });
});

describe('SearchService.explain', () => {
  it('shows the statement over the whole range, with parts of words looked up', async () => {
    const { service } = serviceWithCatalog();
    const explained = await service.explain('acme', '*mimikatz*', range);
    expect(explained.plan.compiled.sql).toContain("like(replaceAll(lower(search_text), '_', 'Z'), '%mimikatz%')");
    expect(explained.predicates.map((p) => p.index)).toEqual(['prefilters']);
  });
});

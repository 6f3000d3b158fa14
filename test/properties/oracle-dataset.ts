/**
 * One random dataset of the oracle test: events generated from a fixed seed, flattened and
 * encoded exactly as ingest does, written to the engine under their own tenant, and kept as
 * evaluator events.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ChdbEngine } from '../../src/engine/chdb/index.js';
import { encodeEventRow, timeExtentsOf, type EncodedEventRow, type Engine } from '../../src/engine/index.js';
import { flattenEvent } from '../../src/ingest/flatten-event.js';
import { valuesText } from '../../src/ingest/values-text.js';
import type { StoredLayout } from '../../src/core/index.js';
import type { EvalEvent, FieldTypes, IndexInfo } from '../../src/query/index.js';
import { arbitraryEvent } from './random-events.js';

export interface OracleDataset {
  readonly tenant: string;
  readonly events: readonly EvalEvent[];
  readonly fieldPaths: readonly string[];
  /** The catalog's types of each path over the dataset's range, as search reads them for aggregations. */
  readonly fieldTypes: FieldTypes;
  /** Where the dataset's columns are stored (typed slots and the rest maps, as the engine's field maps say). */
  readonly layout: StoredLayout;
  readonly startNs: bigint;
  readonly endNs: bigint;
}

/** The indexes the datasets' events are spread over: two user indexes and a system one. */
export const oracleIndexes: IndexInfo[] = [
  { id: 'i-main', name: 'main', system: false },
  { id: 'i-other', name: 'other', system: false },
  { id: 'i-detections', name: '_detections', system: true },
];

/**
 * A chDB engine in a temporary directory holding `count` datasets (tenants `<name>-<i>`, seeds
 * `seedBase + i`), written before the file's tests and removed after them. `datasets` fills then.
 */
export function useOracleDatasets(name: string, count: number, seedBase: number): { engine: Engine; datasets: OracleDataset[] } {
  const dir = mkdtempSync(join(tmpdir(), `vigil-${name}-`));
  const engine = new ChdbEngine({ path: dir, poolSize: 2 });
  const datasets: OracleDataset[] = [];
  beforeAll(async () => {
    await engine.init();
    for (let i = 0; i < count; i++) datasets.push(await buildOracleDataset(engine, `${name}-${i}`, oracleIndexes, seedBase + i));
  }, 120_000);
  afterAll(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { engine, datasets };
}

const baseNs = 1_763_683_200_000_000_000n; // 2025-11-21T00:00:00Z

/** Generates, writes and returns one dataset of about 60 events. */
export async function buildOracleDataset(engine: Engine, tenant: string, indexes: readonly IndexInfo[], seed: number): Promise<OracleDataset> {
  const [objects] = fc.sample(fc.array(arbitraryEvent, { minLength: 40, maxLength: 80 }), { seed, numRuns: 1 });
  const [placement] = fc.sample(
    fc.array(fc.tuple(fc.nat({ max: 19 }), fc.nat({ max: 99 }), fc.nat({ max: 999 })), { minLength: 80, maxLength: 80 }),
    { seed: seed + 7, numRuns: 1 },
  );
  const events: EvalEvent[] = [];
  const rows: EncodedEventRow[] = [];
  (objects ?? []).forEach((object, i) => {
    const [second, where, nanos] = placement?.[i] ?? [0, 0, 0];
    // few distinct times, so ties between events are common and ordering by seq matters
    const tsNs = baseNs + BigInt(second) * 1_000_000_000n + BigInt(nanos % 3);
    const index = (where < 75 ? indexes[0] : where < 92 ? indexes[1] : indexes[2]) as IndexInfo;
    const seq = BigInt(i + 1);
    const flat = flattenEvent(object);
    const columns: Record<string, string | number | null> = { ...flat.attrs };
    for (const path of flat.nullPaths) columns[path] = null;
    events.push({ columns, tsNs, seq, sourceType: i % 4 === 0 ? 'aws:cloudtrail' : 'custom:generic', indexName: index.name, indexId: index.id, systemIndex: index.system });
    rows.push(
      encodeEventRow({
        tenant,
        indexId: index.id,
        tsNs,
        seq,
        sourceType: i % 4 === 0 ? 'aws:cloudtrail' : 'custom:generic',
        tsField: '',
        rawJson: JSON.stringify(object),
        attrs: flat.attrs,
        nullPaths: flat.nullPaths,
        searchText: valuesText(flat.attrs),
      }),
    );
  });
  // Three batches: the first promotes its frequent fields to slots, later ones promote more, so
  // some columns are in slots for later rows and in the rest maps for earlier ones.
  for (const [from, to] of [[0, 10], [10, 30], [30, rows.length]] as const) {
    const part = rows.slice(from, to);
    if (part.length > 0) await engine.insertEvents({ rows: part, extents: timeExtentsOf(part.map((row) => row.event)) });
  }
  const ids = indexes.map((index) => index.id);
  const catalog = await engine.fieldCatalog(tenant, ids);
  // The range starts 1 ns before midnight, so the types come from a catalog read over two days.
  const startNs = baseNs - 1n;
  const endNs = baseNs + 60_000_000_000n;
  const typed = await engine.fieldCatalog(tenant, ids, Number(startNs / 1_000_000n), Number(endNs / 1_000_000n));
  const fieldTypes = new Map(typed.map((field) => [field.path, field.types]));
  const layout = await engine.fieldLayout(tenant, ids);
  return { tenant, events, fieldPaths: catalog.map((f) => f.path), fieldTypes, layout, startNs, endNs };
}

/**
 * Disagreements the oracle property test found, kept as fixed cases: each runs on the engine
 * and in the evaluator, and both must give the result the language docs prescribe.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbEngine } from '../../src/engine/chdb/index.js';
import { timeExtentsOf } from '../../src/engine/index.js';
import { flattenEvent } from '../../src/ingest/flatten-event.js';
import { valuesText } from '../../src/ingest/values-text.js';
import { analyzeQuery, compileQuery, evaluateQuery, parseQueryOrThrow, type EvalEvent, type IndexInfo, type TableValue } from '../../src/query/index.js';
import { decodeRows, readCompiled } from '../../src/search/index.js';
import { normalizeTable } from './table-comparison.js';

const indexes: IndexInfo[] = [{ id: 'i-main', name: 'main', system: false }];
const dir = mkdtempSync(join(tmpdir(), 'vigil-regressions-'));
const engine = new ChdbEngine({ path: dir, poolSize: 1 });
const baseNs = 1_763_683_200_000_000_000n;
let tenantCount = 0;

beforeAll(async () => engine.init());
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the events under a fresh tenant and returns what the engine and the evaluator answer. */
async function both(objects: readonly Record<string, unknown>[], text: string): Promise<{ engine: Record<string, TableValue>[]; evaluator: Record<string, TableValue>[]; decoded: Record<string, TableValue>[] }> {
  const tenant = `regression-${tenantCount++}`;
  const events: EvalEvent[] = [];
  const rows = objects.map((object, i) => {
    const flat = flattenEvent(object);
    const columns: Record<string, string | number | null> = { ...flat.attrs };
    for (const path of flat.nullPaths) columns[path] = null;
    const tsNs = baseNs + BigInt(i) * 1_000_000_000n;
    events.push({ columns, tsNs, seq: BigInt(i + 1), sourceType: 'custom:generic', indexName: 'main', indexId: 'i-main', systemIndex: false });
    return engine.encodeEventRow({
      tenant,
      indexId: 'i-main',
      tsNs,
      seq: BigInt(i + 1),
      sourceType: 'custom:generic',
      tsField: '',
      rawJson: JSON.stringify(object),
      attrsJson: JSON.stringify(flat.attrs),
      nullPaths: flat.nullPaths,
      searchText: valuesText(flat.attrs),
    });
  });
  if (rows.length > 0) await engine.insertEvents({ rows, extents: timeExtentsOf(events.map((event) => ({ tenant, ...event }))) });
  const query = parseQueryOrThrow(text);
  const catalog = await engine.fieldCatalog(tenant, ['i-main']);
  const analyzed = analyzeQuery(query, { indexes, fieldPaths: catalog.map((f) => f.path) }).analyzed;
  if (!analyzed) throw new Error(`analysis failed: ${text}`);
  const compiled = compileQuery(analyzed, { tenant, startNs: baseNs, endNs: baseNs + 10_000_000_000_000n });
  const result = await readCompiled(engine, compiled, { settings: compiled.settings });
  const decoded = decodeRows(compiled.output, result.rows, new Map([['i-main', 'main']])).map((r) => r.columns);
  return { engine: normalizeTable(decoded), evaluator: normalizeTable(evaluateQuery(query, events).rows), decoded };
}

const userColumns = (rows: Record<string, TableValue>[]): Record<string, TableValue>[] =>
  rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('@'))));

describe('oracle regressions', () => {
  it('integer values of raw events come back as numbers, not digit strings', async () => {
    const result = await both([{ req: 200, big: 123456789 }], '* | head 1');
    expect(userColumns(result.engine)).toEqual([{ big: 123456789, req: 200 }]);
    expect(result.engine).toEqual(result.evaluator);
  });

  it('a value group distributes before a wildcard name: `x**: (not v)` holds when no column matches', async () => {
    const result = await both([{ a: 'foo' }, { x: { y: 'foo' } }, { x: { y: 'bar' } }], '`x**`: (not foo*) | count');
    expect(result.engine).toEqual([{ '@q.count': 2 }]);
    expect(result.engine).toEqual(result.evaluator);
  });

  it('renaming a column to itself keeps it, and makes a missing one null', async () => {
    const result = await both([{ a: 1 }], '* | rename(a as a, b as b) | table(a, b)');
    expect(result.engine).toEqual([{ a: 1, b: null }]);
    expect(result.engine).toEqual(result.evaluator);
  });

  it('percentile ranks are exact: the 99.9th of 1..1000 is 999, not 1000', async () => {
    const events = Array.from({ length: 1000 }, (_, i) => ({ v: i + 1 }));
    const result = await both(events, '* | percentile(99.9, v)');
    expect(result.engine).toEqual([{ '@q.value': 999 }]);
    expect(result.engine).toEqual(result.evaluator);
  });

  it('a column named twice in stats by groups once', async () => {
    const result = await both([{ ip: { type: 'v4' } }, { ip: { type: 'v4' } }, { other: 1 }], '* | stats ip.type, `ip.type` by ip.type, `ip.type`');
    expect(result.engine).toEqual([
      { '@q.count': 1, 'ip.type': null },
      { '@q.count': 2, 'ip.type': 'v4' },
    ]);
    expect(result.engine).toEqual(result.evaluator);
  });

  it('negative zero reads as 0', async () => {
    const result = await both([{ x: -0.3 }], '* | eval r = math.round(x) | table(r)');
    expect(result.engine).toEqual([{ r: 0 }]);
    expect(Object.is(result.decoded[0]?.r, 0)).toBe(true); // not -0, which JSON prints as "-0"
    expect(result.engine).toEqual(result.evaluator);
  });
});

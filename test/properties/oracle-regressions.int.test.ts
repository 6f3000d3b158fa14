/**
 * Disagreements the oracle property test found, kept as fixed cases: each runs on the engine
 * and in the evaluator, and both must give the result the language docs prescribe.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbEngine } from '../../src/engine/chdb/index.js';
import { encodeEventRow, timeExtentsOf } from "../../src/engine/index.js";
import { flattenEvent } from '../../src/ingest/flatten-event.js';
import { parseJsonText } from '../../src/ingest/parse-json-text.js';
import { valuesText } from '../../src/ingest/values-text.js';
import { analyzeQuery, withStoredLayout, compileQuery, evaluateQuery, parseQueryOrThrow, type EvalEvent, type IndexInfo, type TableValue } from '../../src/query/index.js';
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
    return encodeEventRow({
      tenant,
      indexId: 'i-main',
      tsNs,
      seq: BigInt(i + 1),
      sourceType: 'custom:generic',
      tsField: '',
      rawJson: JSON.stringify(object),
      attrs: flat.attrs,
      nullPaths: flat.nullPaths,
      searchText: valuesText(flat.attrs),
    });
  });
  if (rows.length > 0) await engine.insertEvents({ rows, extents: timeExtentsOf(events.map((event) => ({ tenant, ...event }))) });
  const query = parseQueryOrThrow(text);
  const catalog = await engine.fieldCatalog(tenant, ['i-main']);
  const analyzed = analyzeQuery(query, { indexes, fieldPaths: catalog.map((f) => f.path) }).analyzed;
  if (!analyzed) throw new Error(`analysis failed: ${text}`);
  const compiled = compileQuery(withStoredLayout(analyzed, await engine.fieldLayout(tenant, ['i-main'])), { tenant, startNs: baseNs, endNs: baseNs + 10_000_000_000_000n });
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

  describe('comparisons are exact beyond 2^53 (D3, D17)', () => {
    /** Events as ingest parses NDJSON lines: integers beyond 2^53 become digit strings. */
    const ingested = (...lines: string[]): Record<string, unknown>[] =>
      lines.map((line) => {
        const parsed = parseJsonText(line);
        if (!parsed.ok) throw new Error(`bad test line ${line}`);
        return parsed.value as Record<string, unknown>;
      });
    const qa = ingested(
      '{"timestamp":"2026-01-01T00:00:04Z","id":4,"big":12345678901234567890}',
      '{"timestamp":"2026-01-01T00:00:08Z","id":8,"big2":9007199254740993}',
    );
    const ids = (rows: Record<string, TableValue>[]): TableValue[] => rows.map((row) => row.id ?? null);

    it('ingest keeps the QA events\' big values as digit strings', () => {
      expect(qa.map((e) => e.big ?? e.big2)).toEqual(['12345678901234567890', '9007199254740993']);
    });

    it.each([
      ['big > 12345678901234567890', []],
      ['big >= 12345678901234567890', [4]],
      ['big <= 12345678901234567890', [4]],
      ['big < 12345678901234567890', []],
      ['big > 12345678901234567999', []],
      ['big < 12345678901234567891', [4]],
      ['big > 12345678901234567889', [4]],
      ['big2 > 9007199254740992', [8]],
      ['big2 <= 9007199254740992', []],
      ['big2 >= 9007199254740993', [8]],
      ['big2 < 9007199254740994', [8]],
      ['big2 > 9007199254740993.0', []],
      ['big2 > 9.007199254740992e15', [8]],
      ['big2 < 9.007199254740993001e15', [8]],
      ['big2 >= 1e16', []],
    ])('%s matches ids %j', async (query, expected) => {
      const result = await both(qa, `${query} | table(id)`);
      expect(ids(result.engine)).toEqual(expected);
      expect(result.engine).toEqual(result.evaluator);
    });

    it.each([
      ['n > 9223372036854775807', '{"n":9223372036854775808}', true],
      ['n >= 9223372036854775809', '{"n":9223372036854775808}', false],
      ['n < 18446744073709551616', '{"n":18446744073709551615}', true],
      ['n > 18446744073709551615', '{"n":18446744073709551616}', true],
      ['n >= -9007199254740992', '{"n":-9007199254740993}', false],
      ['n < -9007199254740992', '{"n":-9007199254740993}', true],
      ['n < -9223372036854775808', '{"n":-9223372036854775809}', true],
      ['n > -9223372036854775808', '{"n":-9223372036854775809}', false],
      ['n > 100000000000000000000000000000000000000000000000000000000000000000000000000000001', '{"n":100000000000000000000000000000000000000000000000000000000000000000000000000000002}', true],
      ['n <= 1e20', '{"n":100000000000000000001}', false],
      ['n > 1e20', '{"n":100000000000000000001}', true],
      ['n > 0.1', '{"n":0.1}', false],
      ['n >= 0.1', '{"n":0.1}', true],
      ['n <= 0.10000000000000000001', '{"n":0.1}', true],
      ['n >= 9007199254740992', '{"n":9007199254740991}', false],
      ['n < 9007199254740993', '{"n":9007199254740991}', true],
      ['n >= -0', '{"n":0}', true],
      ['n > -0', '{"n":"-0.0"}', false],
      ['n >= 0', '{"n":"-0.0"}', true],
      ['n > 12', '{"n":"0012.5"}', true],
      ['n < 1.25e1', '{"n":"0012.5"}', false],
      ['n <= 1.25e1', '{"n":"0012.5"}', true],
      ['n > 1e400', '{"n":1e300}', false],
      ['n < 1e400', '{"n":1e300}', true],
      ['n < 1e400', '{"n":"1e401"}', false],
      ['n > -1e400', '{"n":-1e300}', true],
      ['n > 0', '{"n":"1e-400"}', true],
      ['n > 0', '{"n":"12a"}', false],
      ['n > 0', '{"n":"1e"}', false],
      ['n > 9', '{"n":"1e0000000000000000000001"}', true],
      ['n < 1e100000000000000000', '{"n":"1e99999999999999999"}', true],
    ])('%s on %s: %s', async (query, line, expected) => {
      const result = await both(ingested(line), `${query} | count`);
      expect(result.engine).toEqual([{ '@q.count': expected ? 1 : 0 }]);
      expect(result.engine).toEqual(result.evaluator);
    });

    it('`=` on a number compares exactly too: no stored double equals 9007199254740993', async () => {
      const events = ingested('{"id":1,"n":9007199254740992.0}', '{"id":2,"n":9007199254740993}', '{"id":3,"n":0.1}');
      for (const [query, expected] of [
        ['n = 9007199254740993', [2]],
        ['n: 9007199254740993', [2]],
        ['n = 0.1', [3]],
        ['n = 0.10000000000000000001', []],
        ['* | where n == 9007199254740993', []],
        ['* | where n == 9007199254740992', [1]],
      ] as const) {
        const result = await both(events, `${query} | table(id)`);
        expect(ids(result.engine), query).toEqual(expected);
        expect(result.engine, query).toEqual(result.evaluator);
      }
    });

    it('a double beyond 2^53 compares as its canonical text, and its SQL literal is a Float64', async () => {
      // 9223372036854775807.5 is the double 2^63, shown (and compared) as 9223372036854776000
      for (const [where, expected] of [['d > 9223372036854775999', 1], ['d >= 9223372036854776001', 0], ['d <= 9223372036854775808', 0], ['d = 9223372036854776000', 1]] as const) {
        const result = await both([{ id: 1 }], `* | eval d = 9223372036854775807.5 | where ${where} | count`);
        expect(result.engine, where).toEqual([{ '@q.count': expected }]);
        expect(result.engine, where).toEqual(result.evaluator);
      }
    });

    it('an eval number literal beyond 2^53 keeps its digits as a string, as ingest would (D3, D26)', async () => {
      const result = await both(qa.slice(1), '* | eval x = 9007199254740993, y = -12345678901234567890, z = x == big2, w = 9007199254740992.5 | table(x, y, z, w) | where x > 9007199254740992');
      expect(result.engine).toEqual([{ x: '9007199254740993', y: '-12345678901234567890', z: 'true', w: 9007199254740992 }]);
      expect(result.engine).toEqual(result.evaluator);
    });
  });
});

/**
 * Times one bench query: through `SearchService.run` as users hit it (the headline figure, with
 * the engine statements it issued recorded to say where the time goes), as one statement over
 * the whole range for comparison, and ripgrep over the NDJSON file for the text searches.
 */
import { spawn } from 'node:child_process';
import type { Engine } from '../src/engine/index.js';
import { systemClock } from '../src/core/index.js';
import { FieldCatalogCache, planQuery, type IndexInfo, type SearchService, type TimeRange } from '../src/search/index.js';
import type { CallTotals, EngineCallRecorder, KindTotals, StatementKind } from './query-engine-recorder.js';
import { benchTenant } from './query-dataset.js';
import type { BenchQuery } from './query-set.js';

/** min / median / p90 of a series of milliseconds. */
export interface Latency {
  readonly min: number;
  readonly median: number;
  readonly p90: number;
}

export interface QueryTiming {
  readonly query: BenchQuery;
  /** `SearchService.run`, wall time in this process. */
  readonly product: Latency;
  readonly rows: number;
  readonly bytesScanned: number;
  /**
   * Engine statements of one run and medians of their summed time: in all, and by kind (the
   * field-catalog read of planning, the time histogram of sliced searches, the search statements).
   */
  readonly engine: {
    readonly statements: number;
    readonly wallMs: number;
    readonly clickhouseMs: number;
    readonly rowsRead: number;
    readonly byKind: Readonly<Record<StatementKind, KindTotals>>;
  };
  /**
   * The same query as one statement over the whole range (`planQuery` + `engine.query`, what a
   * search without time slices would run), when the product searched in several slices.
   */
  readonly wholeRange: { readonly latency: Latency; readonly rowsRead: number; readonly bytesRead: number } | null;
  /** Every predicate prefiltered by the text index (and at least one predicate). */
  readonly indexed: boolean;
  readonly predicates: readonly { source: string; index: string }[];
  readonly sql: string;
  readonly rg: RgTiming | null;
}

export interface RgTiming {
  readonly command: string;
  readonly latency: Latency;
  readonly lines: number;
  readonly outputBytes: number;
}

export interface TimingOptions {
  readonly engine: Engine;
  readonly recorder: EngineCallRecorder;
  readonly search: SearchService;
  readonly indexes: () => Promise<readonly IndexInfo[]>;
  readonly range: TimeRange;
  readonly runs: number;
  readonly wholeRangeRuns: number;
  readonly rgRuns: number;
  readonly ndjson: string;
  readonly log: (line: string) => void;
}

/** Warms up once, then times `runs` product runs, the whole-range statement and (text searches) ripgrep. */
export async function timeQuery(query: BenchQuery, options: TimingOptions): Promise<QueryTiming> {
  const { search, range, recorder } = options;
  const runOptions = { maxRows: query.maxRows, order: 'desc' as const };
  const warm = await search.run(benchTenant, query.text, range, runOptions);
  const product: number[] = [];
  const engineRuns: CallTotals[] = [];
  for (let i = 0; i < options.runs; i++) {
    recorder.reset();
    const started = performance.now();
    await search.run(benchTenant, query.text, range, runOptions);
    product.push(performance.now() - started);
    engineRuns.push(recorder.totals());
  }
  const median = (f: (t: CallTotals) => number): number => latency(engineRuns.map(f)).median;
  const kind = (k: StatementKind): KindTotals => ({ statements: engineRuns.at(-1)!.byKind[k].statements, wallMs: median((t) => t.byKind[k].wallMs) });
  const statements = engineRuns.at(-1)!.statements;
  const searchStatements = engineRuns.at(-1)!.byKind.search.statements;

  const plan = await planQuery(
    {
      tenant: benchTenant,
      text: query.text,
      indexes: await options.indexes(),
      startNs: range.startNs,
      endNs: range.endNs,
      order: 'desc',
      limit: query.maxRows,
    },
    new FieldCatalogCache(options.engine, systemClock),
  );
  let wholeRange: QueryTiming['wholeRange'] = null;
  if (searchStatements > 1 && options.wholeRangeRuns > 0) {
    const times: number[] = [];
    let stats = { rowsRead: 0, bytesRead: 0 };
    for (let i = 0; i < options.wholeRangeRuns; i++) {
      const started = performance.now();
      const result = await options.engine.query(plan.compiled.sql, { settings: plan.compiled.settings });
      times.push(performance.now() - started);
      stats = result.stats;
    }
    wholeRange = { latency: latency(times), rowsRead: stats.rowsRead, bytesRead: stats.bytesRead };
  }
  const predicates = plan.compiled.plans.map((p) => ({ source: p.source, index: p.index }));
  const timing: QueryTiming = {
    query,
    product: latency(product),
    rows: warm.rows.length,
    bytesScanned: warm.bytesScanned,
    engine: {
      statements,
      wallMs: median((t) => t.wallMs),
      clickhouseMs: median((t) => t.clickhouseMs),
      rowsRead: median((t) => t.rowsRead),
      byKind: { catalog: kind('catalog'), span: kind('span'), histogram: kind('histogram'), search: kind('search') },
    },
    wholeRange,
    indexed: predicates.length > 0 && predicates.every((p) => p.index !== 'none'),
    predicates,
    sql: plan.compiled.sql,
    rg: query.rg && options.rgRuns > 0 ? await timeRipgrep(query.rg, options) : null,
  };
  options.log(
    `${query.name}: median ${timing.product.median.toFixed(1)} ms, ${timing.rows} rows, ${statements} statement(s)` +
      (wholeRange ? `; whole range ${wholeRange.latency.median.toFixed(1)} ms` : '') +
      (timing.rg ? `; rg median ${timing.rg.latency.median.toFixed(0)} ms, ${timing.rg.lines} lines` : ''),
  );
  return timing;
}

async function timeRipgrep(args: readonly string[], options: TimingOptions): Promise<RgTiming> {
  const argv = [...args, '--', options.ndjson];
  await runRipgrep(argv); // warm-up: the file is in the page cache for the timed runs
  const times: number[] = [];
  let last = { lines: 0, bytes: 0 };
  for (let i = 0; i < options.rgRuns; i++) {
    const started = performance.now();
    last = await runRipgrep(argv);
    times.push(performance.now() - started);
  }
  return { command: `rg ${args.map(shellQuote).join(' ')} FILE`, latency: latency(times), lines: last.lines, outputBytes: last.bytes };
}

/**
 * Runs rg with its matching lines piped to this process, which counts them: the lines are
 * returned to a caller, as the query's rows are (`rg -c`, or output sent to /dev/null, would not
 * be like for like).
 */
function runRipgrep(argv: readonly string[]): Promise<{ lines: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', [...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => {
      // rg exits 1 when nothing matched, 2 on an error.
      if (code === 0 || code === 1) resolve({ lines, bytes });
      else reject(new Error(`rg ${argv.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/** min, median and p90 (nearest rank) of a non-empty series. */
export function latency(ms: readonly number[]): Latency {
  const sorted = [...ms].sort((a, b) => a - b);
  return { min: sorted[0]!, median: nearestRank(sorted, 0.5), p90: nearestRank(sorted, 0.9) };
}

/** The q-quantile (0 < q ≤ 1) of a non-empty ascending series, by nearest rank. */
export function nearestRank(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_.\-/]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

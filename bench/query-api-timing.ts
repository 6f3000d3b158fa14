/**
 * Times the query API of a running server: each bench query through `blocking_query`, first by
 * one client, then by several at once (each sending its requests one after another), and a
 * full-range scan through `start_query` + tight `query_progress` polling until its first rows
 * and its completion. Server-side times come from the server's request log afterwards.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AdhocQueryBody } from '../src/search/index.js';
import { expectOk, type QueryApiClient } from './query-api-client.js';
import type { BenchQuery } from './query-set.js';
import { nearestRank } from './query-timing.js';

/** The time range of a request body (RFC 3339). */
export interface RangeBody {
  readonly start_time: string;
  readonly end_time: string;
}

/** One timed request: its `x-request-id` and client-side milliseconds. */
export interface Sample {
  readonly id: string;
  readonly ms: number;
}

/** Requests of one query by `clients` clients at once, and the wall time they took together. */
export interface Phase {
  readonly clients: number;
  readonly samples: readonly Sample[];
  readonly wallMs: number;
  /** Answers other than 200, e.g. `429 ×2`. */
  readonly failures: readonly string[];
}

export interface BlockingTiming {
  readonly query: BenchQuery;
  readonly rows: number;
  /** Size of one answer's body. */
  readonly responseBytes: number;
  readonly serial: Phase;
  readonly concurrent: Phase;
}

export interface ScanRun {
  /** `start_query` answered (planning included). */
  readonly startMs: number;
  /** The first `query_progress` answer holding at least one row, from just before `start_query`. */
  readonly firstRowsMs: number;
  readonly rowsAtFirst: number;
  /** Body size and client-side time of that first answer with rows. */
  readonly firstAnswer: { readonly bytes: number; readonly ms: number };
  readonly completedMs: number;
  readonly rows: number;
  readonly bytesScanned: number;
  readonly polls: readonly Sample[];
}

export interface ScanTiming {
  readonly name: string;
  readonly text: string;
  readonly maxRows: number;
  readonly pollMs: number;
  readonly runs: readonly ScanRun[];
}

export interface BlockingOptions {
  readonly client: QueryApiClient;
  readonly range: RangeBody;
  readonly clients: number;
  /** Requests per client after one warm-up request each. */
  readonly runs: number;
  /** Requests of one client alone, before the concurrent ones (0 skips). */
  readonly serialRuns: number;
  readonly log: (line: string) => void;
}

/** Times one query through `blocking_query` (the in-process mode's body: newest first, its max_rows). */
export async function timeBlockingQuery(query: BenchQuery, options: BlockingOptions): Promise<BlockingTiming> {
  const body: AdhocQueryBody = { query: query.text, ...options.range, max_rows: query.maxRows, scan_back_to_front: true };
  const warm = await options.client.blocking(body, `${query.name}-warm`);
  const answer = expectOk(warm, `blocking_query ${query.name}`);
  const serial = await runClients(options.client, body, `${query.name}-serial`, 1, options.serialRuns);
  await runClients(options.client, body, `${query.name}-warm`, options.clients, 1);
  const concurrent = await runClients(options.client, body, `${query.name}-c${options.clients}`, options.clients, options.runs);
  const timing: BlockingTiming = { query, rows: answer.results?.rows?.length ?? 0, responseBytes: warm.bytes, serial, concurrent };
  const p = (phase: Phase, q: number): string => (phase.samples.length > 0 ? `${nearestRank(sortedMs(phase.samples), q).toFixed(1)} ms` : '–');
  options.log(
    `${query.name}: 1 client p50 ${p(serial, 0.5)}; ${options.clients} clients p50 ${p(concurrent, 0.5)}, p95 ${p(concurrent, 0.95)}; ${timing.rows} rows` +
      (concurrent.failures.length > 0 ? `; failed: ${concurrent.failures.join(', ')}` : ''),
  );
  return timing;
}

/** `clients` loops at once, each sending `runs` requests one after another. */
async function runClients(client: QueryApiClient, body: AdhocQueryBody, prefix: string, clients: number, runs: number): Promise<Phase> {
  const samples: Sample[] = [];
  const failures = new Map<number, number>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: runs > 0 ? clients : 0 }, async (_, c) => {
      for (let i = 0; i < runs; i++) {
        const id = `${prefix}-${c}-${i}`;
        const answer = await client.blocking(body, id);
        if (answer.status === 200) samples.push({ id, ms: answer.ms });
        else failures.set(answer.status, (failures.get(answer.status) ?? 0) + 1);
      }
    }),
  );
  return { clients, samples, wallMs: performance.now() - started, failures: [...failures].map(([status, n]) => `${status} ×${n}`) };
}

/** Runs a scan `runs` times after one warm-up, polling `query_progress` every `pollMs`. */
export async function timeScan(
  client: QueryApiClient,
  scan: { name: string; text: string; maxRows: number },
  range: RangeBody,
  runs: number,
  pollMs: number,
  log: (line: string) => void,
): Promise<ScanTiming> {
  const body: AdhocQueryBody = { query: scan.text, ...range, max_rows: scan.maxRows, scan_back_to_front: true };
  const timed: ScanRun[] = [];
  for (let r = -1; r < runs; r++) {
    const run = await scanOnce(client, body, `scan-${scan.name}-${r < 0 ? 'warm' : r}`, pollMs);
    if (r >= 0) timed.push(run);
    log(
      `scan ${scan.name}${r < 0 ? ' (warm-up)' : ''}: first rows ${run.firstRowsMs.toFixed(0)} ms (${run.rowsAtFirst} rows), completed ${run.completedMs.toFixed(0)} ms (${run.rows} rows, ${run.polls.length} polls)`,
    );
  }
  return { ...scan, pollMs, runs: timed };
}

async function scanOnce(client: QueryApiClient, body: AdhocQueryBody, prefix: string, pollMs: number): Promise<ScanRun> {
  const started = performance.now();
  const start = await client.start(body, `${prefix}-start`);
  const qrId = expectOk(start, 'start_query').qr_id!;
  const polls: Sample[] = [];
  let first: { ms: number; rows: number; answer: { bytes: number; ms: number } } | null = null;
  try {
    for (;;) {
      // Rows are asked for until the first arrive; after that only completion is awaited, so the
      // polls do not ship the growing table again and again.
      const id = `${prefix}-poll-${polls.length}`;
      const answer = await client.progress(qrId, first === null, id);
      const elapsed = performance.now() - started;
      const progress = expectOk(answer, 'query_progress');
      polls.push({ id, ms: answer.ms });
      const rows = progress.results?.rows?.length ?? 0;
      if (first === null && rows > 0) first = { ms: elapsed, rows, answer: { bytes: answer.bytes, ms: answer.ms } };
      if (progress.is_completed) {
        const firstAnswer = first?.answer ?? { bytes: answer.bytes, ms: answer.ms };
        return {
          startMs: start.ms,
          firstRowsMs: first?.ms ?? elapsed,
          rowsAtFirst: first?.rows ?? 0,
          firstAnswer,
          completedMs: elapsed,
          rows,
          bytesScanned: progress.metadata?.n_bytes_scanned ?? 0,
          polls,
        };
      }
      await sleep(pollMs);
    }
  } catch (error) {
    await client.cancel(qrId).catch(() => {});
    throw error;
  }
}

/** `request_id` → `responseTime` (ms, from the request arriving to the answer sent) of the server's request log. */
export function serverResponseTimes(logPath: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const line of readFileSync(logPath, 'utf8').split('\n')) {
    if (!line.includes('"responseTime"')) continue;
    try {
      const entry = JSON.parse(line) as { request_id?: string; responseTime?: number };
      if (entry.request_id !== undefined && typeof entry.responseTime === 'number') times.set(entry.request_id, entry.responseTime);
    } catch {
      // Not a log line of ours (the server's stdout shares the file).
    }
  }
  return times;
}

function sortedMs(samples: readonly Sample[]): number[] {
  return samples.map((s) => s.ms).sort((a, b) => a - b);
}

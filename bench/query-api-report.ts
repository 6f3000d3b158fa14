/**
 * The API mode's figures: percentiles of client- and server-side latency per query, the scans'
 * time to first rows and to completion, and issue 4's targets with PASS/MISS.
 */
import type { TargetCheck } from './query-report.js';
import type { BlockingTiming, Phase, Sample, ScanTiming } from './query-api-timing.js';
import { nearestRank } from './query-timing.js';

export interface Percentiles {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

export interface PhaseSummary {
  readonly clients: number;
  readonly client: Percentiles | null;
  /** The server's `responseTime` of the same requests (request in → answer sent). */
  readonly server: Percentiles | null;
  readonly requestsPerS: number;
  readonly failures: readonly string[];
}

export interface BlockingSummary {
  readonly name: string;
  readonly text: string;
  readonly rows: number;
  readonly responseBytes: number;
  readonly serial: PhaseSummary;
  readonly concurrent: PhaseSummary;
  /** `SearchService.run` median of the in-process results the terms came from, when they did. */
  readonly inProcessMedianMs: number | null;
}

export interface ScanSummary {
  readonly name: string;
  readonly text: string;
  readonly maxRows: number;
  readonly pollMs: number;
  readonly startQuery: Percentiles;
  readonly firstRows: Percentiles;
  readonly completed: Percentiles;
  readonly rowsAtFirst: number;
  /** p50 of the first answer with rows: its client-side time and body size. */
  readonly firstAnswerMs: number;
  readonly firstAnswerBytes: number;
  readonly rows: number;
  readonly bytesScanned: number;
  readonly pollServer: Percentiles | null;
  readonly pollClient: Percentiles;
}

/** Percentiles (nearest rank) of a series; null when it is empty. */
export function percentiles(ms: readonly number[]): Percentiles | null {
  if (ms.length === 0) return null;
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: nearestRank(sorted, 0.5), p95: nearestRank(sorted, 0.95), max: sorted.at(-1)! };
}

function serverSide(samples: readonly Sample[], serverMs: ReadonlyMap<string, number>): Percentiles | null {
  return percentiles(samples.flatMap((s) => serverMs.get(s.id) ?? []));
}

function summarizePhase(phase: Phase, serverMs: ReadonlyMap<string, number>): PhaseSummary {
  return {
    clients: phase.clients,
    client: percentiles(phase.samples.map((s) => s.ms)),
    server: serverSide(phase.samples, serverMs),
    requestsPerS: phase.samples.length / (phase.wallMs / 1000),
    failures: phase.failures,
  };
}

/** Summarizes the blocking timings with the server's times and the in-process medians (by query name). */
export function summarizeBlocking(timings: readonly BlockingTiming[], serverMs: ReadonlyMap<string, number>, inProcess: ReadonlyMap<string, number>): BlockingSummary[] {
  return timings.map((t) => ({
    name: t.query.name,
    text: t.query.text,
    rows: t.rows,
    responseBytes: t.responseBytes,
    serial: summarizePhase(t.serial, serverMs),
    concurrent: summarizePhase(t.concurrent, serverMs),
    inProcessMedianMs: inProcess.get(t.query.name) ?? null,
  }));
}

export function summarizeScan(scan: ScanTiming, serverMs: ReadonlyMap<string, number>): ScanSummary {
  const of = (f: (r: ScanTiming['runs'][number]) => number): Percentiles => percentiles(scan.runs.map(f))!;
  const polls = scan.runs.flatMap((r) => r.polls);
  return {
    name: scan.name,
    text: scan.text,
    maxRows: scan.maxRows,
    pollMs: scan.pollMs,
    startQuery: of((r) => r.startMs),
    firstRows: of((r) => r.firstRowsMs),
    completed: of((r) => r.completedMs),
    rowsAtFirst: of((r) => r.rowsAtFirst).p50,
    firstAnswerMs: of((r) => r.firstAnswer.ms).p50,
    firstAnswerBytes: of((r) => r.firstAnswer.bytes).p50,
    rows: scan.runs.at(-1)!.rows,
    bytesScanned: scan.runs.at(-1)!.bytesScanned,
    pollServer: serverSide(polls, serverMs),
    pollClient: percentiles(polls.map((s) => s.ms))!,
  };
}

/** Rare-token p50 ≤ 50 ms with the configured clients; each full-range scan's first rows ≤ 500 ms (median). */
export function checkApiTargets(blocking: readonly BlockingSummary[], scans: readonly ScanSummary[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const rare = blocking.find((b) => b.name === 'rare-token');
  const p50 = rare?.concurrent.client?.p50;
  if (rare && p50 !== undefined) {
    const failed = rare.concurrent.failures.length > 0;
    checks.push({
      target: `rare-token blocking_query p50 ≤ 50 ms through HTTP (${rare.concurrent.clients} clients)`,
      pass: p50 <= 50 && !failed,
      detail: `${ms(p50)} (p95 ${ms(rare.concurrent.client!.p95)}; 1 client ${rare.serial.client ? ms(rare.serial.client.p50) : '–'})${failed ? `; failed requests: ${rare.concurrent.failures.join(', ')}` : ''}`,
    });
  }
  for (const scan of scans) {
    const atCompletion = scan.firstRows.p50 >= scan.completed.p50;
    checks.push({
      target: `first intermediate result of a full-range scan ≤ 500 ms (median): ${scan.name} \`${scan.text}\``,
      pass: scan.firstRows.p50 <= 500,
      detail: `${ms(scan.firstRows.p50)} (p95 ${ms(scan.firstRows.p95)}; completed in ${ms(scan.completed.p50)}${atCompletion ? ': the first rows came only with completion' : ''})`,
    });
  }
  return checks;
}

/** The tables (Markdown, to paste into docs/benchmarks-journal.md) and the targets. */
export function formatApiReport(blocking: readonly BlockingSummary[], scans: readonly ScanSummary[], checks: readonly TargetCheck[]): string {
  const clients = blocking[0]?.concurrent.clients ?? 0;
  const lines = [
    '',
    `| query | rows | KB | in-process median | 1 client p50 | server p50 | ${clients} clients p50 | p95 | max | server p50 / p95 | req/s |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const b of blocking) {
    const c = b.concurrent;
    const cells = [
      b.name,
      b.rows.toLocaleString('en-US'),
      (b.responseBytes / 1024).toFixed(0),
      b.inProcessMedianMs === null ? '–' : ms(b.inProcessMedianMs),
      b.serial.client ? ms(b.serial.client.p50) : '–',
      b.serial.server ? ms(b.serial.server.p50) : '–',
      c.client ? `**${ms(c.client.p50)}**` : '–',
      c.client ? ms(c.client.p95) : '–',
      c.client ? ms(c.client.max) : '–',
      c.server ? `${ms(c.server.p50)} / ${ms(c.server.p95)}` : '–',
      c.requestsPerS.toFixed(1) + (c.failures.length > 0 ? ` (failed: ${c.failures.join(', ')})` : ''),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push(
    '',
    'Client-side: from sending the request to the whole answer received (keep-alive). server: the',
    "server's logged responseTime of the same requests. in-process median: SearchService.run in the",
    'in-process results the terms were taken from (another run, another moment). req/s: answers per',
    `second of wall time with ${clients} clients.`,
  );
  if (scans.length > 0) {
    lines.push(
      '',
      '| scan | max_rows | start_query p50 | first rows p50 | p95 | rows at first | that answer | completed p50 | p95 | rows | MB scanned | poll p50 (server) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const s of scans) {
      const cells = [
        `${s.name}: \`${s.text.replace(/\|/g, '\\|')}\``,
        s.maxRows.toLocaleString('en-US'),
        ms(s.startQuery.p50),
        `**${ms(s.firstRows.p50)}**`,
        ms(s.firstRows.p95),
        s.rowsAtFirst.toLocaleString('en-US'),
        `${ms(s.firstAnswerMs)}, ${(s.firstAnswerBytes / 1e6).toFixed(1)} MB`,
        ms(s.completed.p50),
        ms(s.completed.p95),
        s.rows.toLocaleString('en-US'),
        (s.bytesScanned / 1e6).toFixed(0),
        `${ms(s.pollClient.p50)} (${s.pollServer ? ms(s.pollServer.p50) : '–'})`,
      ];
      lines.push(`| ${cells.join(' | ')} |`);
    }
    lines.push(
      '',
      `Times from sending start_query; query_progress polled ${scans[0]!.pollMs} ms after each answer, with rows until the first`,
      'arrive, then without. that answer: client-side time and body size of the first answer with rows.',
    );
  }
  lines.push('', 'targets:');
  for (const c of checks) lines.push(`  ${c.pass ? 'PASS' : 'MISS'}  ${c.target}: ${c.detail}`);
  return `${lines.join('\n')}\n`;
}

function ms(x: number): string {
  return x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`;
}

import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { IngestRunResult } from './ingest-run-result.js';
import { readCpuSeconds, readPeakRss, runMeasured } from './measured-process.js';
import { measureStorage } from './storage-footprint.js';
import { benchEnv, vigilArgv } from './vigil-command.js';
import { VigilServerProcess } from './vigil-server-process.js';

export interface HttpIngestOptions {
  readonly repoDir: string;
  readonly file: string;
  /** Target size of one request body; bodies end at a line boundary just past it. */
  readonly bodyBytes: number;
  readonly concurrency: number;
  readonly optimize: boolean;
  readonly keepDataDir: boolean;
  readonly log: (line: string) => void;
}

interface IngestTotals {
  ingested: number;
  rejected: number;
  rawBytes: number;
  requests: number;
}

/**
 * `vigil serve` on a fresh data dir, then the replay file POSTed to `/v1/ingest` as plain NDJSON
 * bodies with a few requests in flight, as a log shipper would. Measures the server's peak RSS
 * and CPU, and the client's CPU (it shares the machine, so its cost is part of the picture).
 */
export async function benchHttpIngest(options: HttpIngestOptions): Promise<IngestRunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-http-'));
  let server: VigilServerProcess | null = null;
  try {
    server = await VigilServerProcess.start(options.repoDir, dataDir, { logPath: join(dataDir, 'server.log') });
    const { url } = server;
    const apiKey = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
    const [cmd, createArgs] = vigilArgv(options.repoDir, 'index', 'create', 'replay', '--tenant', 'default', '--data-dir', dataDir);
    const created = await runMeasured(cmd, createArgs, { cwd: dataDir, env: benchEnv() });
    if (created.exitCode !== 0) throw new Error(`vigil index create failed: ${created.stderr.trim()}`);
    options.log(`http: server ${url} (pid ${server.pid}); posting ${(options.bodyBytes / 1e6).toFixed(0)} MB bodies, ${options.concurrency} in flight …`);

    const clientCpuBefore = process.cpuUsage();
    const started = performance.now();
    const totals = await postFile(`${url}/v1/ingest?tenant_id=default&index=replay`, apiKey, options);
    const wallSeconds = (performance.now() - started) / 1000;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const peakRssBytes = readPeakRss(server.pid);
    const cpuSeconds = readCpuSeconds(server.pid);
    options.log(`http: ${totals.ingested} ingested, ${totals.rejected} rejected in ${wallSeconds.toFixed(1)} s (${totals.requests} requests); stopping the server …`);
    await server.stop();
    const storage = await measureStorage(options.repoDir, join(dataDir, 'engine'), options.optimize);
    return {
      path: 'http',
      ingested: totals.ingested,
      rejected: totals.rejected,
      rawBytes: totals.rawBytes,
      wallSeconds,
      reportedSeconds: null,
      peakRssBytes,
      rssSource: peakRssBytes === null ? 'none' : '/proc VmHWM',
      cpuSeconds,
      clientCpuSeconds: (clientCpu.user + clientCpu.system) / 1e6,
      storage,
      notes: [`${totals.requests} requests`, ...(options.keepDataDir ? [`data dir kept at ${dataDir}`] : [])],
    };
  } finally {
    await server?.stop();
    if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Decompresses the file and sends it in line-aligned bodies, `concurrency` at a time. */
async function postFile(url: string, apiKey: string, options: HttpIngestOptions): Promise<IngestTotals> {
  const totals: IngestTotals = { ingested: 0, rejected: 0, rawBytes: 0, requests: 0 };
  const inFlight = new Set<Promise<void>>();
  const send = async (body: Buffer): Promise<void> => {
    const sent = postBody(url, apiKey, body, totals);
    const tracked = sent.finally(() => inFlight.delete(tracked));
    tracked.catch(() => {}); // a failure surfaces through race/all below, not as an unhandled rejection
    inFlight.add(tracked);
    // Reading pauses while the window is full: memory stays at about concurrency + 1 bodies.
    if (inFlight.size >= options.concurrency) await Promise.race(inFlight);
  };
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const gunzip = createReadStream(options.file, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }));
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes < options.bodyBytes) continue;
    const joined = Buffer.concat(pending, pendingBytes);
    const cut = joined.lastIndexOf(0x0a) + 1;
    if (cut === 0) continue; // one line longer than a body so far: keep reading
    pending = [joined.subarray(cut)];
    pendingBytes = joined.length - cut;
    await send(joined.subarray(0, cut));
  }
  if (pendingBytes > 0) await send(Buffer.concat(pending, pendingBytes));
  await Promise.all(inFlight);
  return totals;
}

async function postBody(url: string, apiKey: string, body: Buffer, totals: IngestTotals): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/x-ndjson' },
    body,
  });
  const answer = (await response.json().catch(() => ({}))) as { ingested?: number; rejected?: number; error?: string };
  if (!response.ok) throw new Error(`POST /v1/ingest answered ${response.status}: ${answer.error ?? response.statusText}`);
  totals.ingested += answer.ingested ?? 0;
  totals.rejected += answer.rejected ?? 0;
  totals.rawBytes += body.length;
  totals.requests++;
}

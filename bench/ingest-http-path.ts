import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, createReadStream, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import type { IngestRunResult } from './ingest-run-result.js';
import { readCpuSeconds, readPeakRss, runMeasured } from './measured-process.js';
import { measureStorage } from './storage-footprint.js';
import { benchEnv, vigilArgv } from './vigil-command.js';

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
  const logPath = join(dataDir, 'server.log');
  const logFd = openSync(logPath, 'a');
  const [node, args] = vigilArgv(options.repoDir, 'serve', '--port', '0');
  const server = spawn(node, args, { cwd: dataDir, env: benchEnv({ VIGIL_DATA_DIR: dataDir }), stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    const url = await waitForServer(dataDir, server, logPath);
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
    const peakRssBytes = readPeakRss(server.pid!);
    const cpuSeconds = readCpuSeconds(server.pid!);
    options.log(`http: ${totals.ingested} ingested, ${totals.rejected} rejected in ${wallSeconds.toFixed(1)} s (${totals.requests} requests); stopping the server …`);
    await stop(server, exited);
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
    await stop(server, exited);
    if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Waits for `<dataDir>/server.json`, which the server writes once it listens. */
async function waitForServer(dataDir: string, server: ChildProcess, logPath: string): Promise<string> {
  const infoPath = join(dataDir, 'server.json');
  for (let waited = 0; waited < 120_000; waited += 100) {
    if (server.exitCode !== null) throw new Error(`vigil serve exited with ${server.exitCode}: ${readFileSync(logPath, 'utf8').slice(-2000)}`);
    if (existsSync(infoPath)) {
      try {
        return (JSON.parse(readFileSync(infoPath, 'utf8')) as { url: string }).url;
      } catch {
        // Caught mid-write; read it again on the next turn.
      }
    }
    await sleep(100);
  }
  throw new Error(`vigil serve did not write ${infoPath} within 120 s: ${readFileSync(logPath, 'utf8').slice(-2000)}`);
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

/** SIGTERM, then SIGKILL if the server has not stopped within a minute. */
async function stop(server: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(timer);
}

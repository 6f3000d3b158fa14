/**
 * `npm run bench -- shippers`: the same events sent to one `vigil serve` through every shipper
 * protocol and through `POST /v1/ingest` (NDJSON), in interleaved rounds, measuring the server's
 * CPU time per event (from /proc) and events per second for each; the ratio to NDJSON is the
 * protocol's overhead. Target: at most 1.15 × NDJSON's CPU per event for every protocol, against
 * NDJSON lines of the events the protocol stores (shipper-encodings.ts, storedShapeReference).
 *
 * Each protocol has a server of its own (startServers), so each pays for its own events and the
 * engine's merges of them, and no other.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { wholeNumberOption } from './bench-options.js';
import { createGunzip } from 'node:zlib';
import { readCpuSeconds, readMainThreadCpuSeconds, runMeasured, waitUntilIdle } from './measured-process.js';
import { benchProtocols, encodeRequest, indexOf, storedShapeReference, type ShipperProtocol } from './shipper-encodings.js';
import { benchEnv, vigilArgv } from './vigil-command.js';
import { VigilServerProcess } from './vigil-server-process.js';

const usage = `npm run bench -- shippers [--events N] [--batch 1000] [--rounds 3] [--concurrency 2] [--no-build]
  --events N       events per protocol (default 60000), taken from ../shared/datasets (Windows, Zeek, web, auth)
  --batch N        events per request (default 1000)
  --rounds N       interleaved rounds: each protocol sends events/rounds per round (default 3)
  --concurrency N  requests in flight (default 2)
  --no-build       do not run tsc first (dist/ must be current)`;

/** The datasets events are drawn from, in turn, and how many lines each gives at most. */
const sources = [
  ['windows/otrf-windows-atomic-host.ndjson.gz', 0.5],
  ['network/zeek-wrccdc-2018.ndjson.gz', 0.25],
  ['web/elastic-examples-apache-access-10k.ndjson.gz', 0.15],
  ['linux/elastic-examples-auth-log.ndjson.gz', 0.1],
] as const;

const targetRatio = 1.15;

interface Totals {
  /** The server's CPU while the protocol's requests were in flight. */
  cpuSeconds: number;
  /** Its CPU over the whole run, idle at the end: the requests and the merges of their parts. */
  wholeCpuSeconds: number;
  /** The server's main thread while sending: decoding and the ingest path's JavaScript. */
  mainThreadCpuSeconds: number;
  wallSeconds: number;
  events: number;
  requests: number;
}

const emptyTotals = (): Totals => ({ cpuSeconds: 0, wholeCpuSeconds: 0, mainThreadCpuSeconds: 0, wallSeconds: 0, events: 0, requests: 0 });

/** What the benches that send requests take: events, events a request, rounds, requests in flight. */
export interface RequestLoadOptions {
  readonly events: number;
  readonly batch: number;
  readonly rounds: number;
  readonly concurrency: number;
  readonly build: boolean;
}

/** Parses `--events --batch --rounds --concurrency --no-build`; null after printing `usage` for `--help`. */
export function parseRequestLoad(argv: readonly string[], usage: string, defaultConcurrency: number): RequestLoadOptions | null {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      events: { type: 'string', default: '60000' },
      batch: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: String(defaultConcurrency) },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return null;
  }
  const count = (name: 'events' | 'batch' | 'rounds' | 'concurrency'): number => wholeNumberOption(name, values[name], usage);
  return { events: count('events'), batch: count('batch'), rounds: count('rounds'), concurrency: count('concurrency'), build: !values['no-build'] };
}

export async function runShippersBench(repoDir: string, argv: readonly string[]): Promise<number> {
  const options = parseRequestLoad(argv, usage, 2);
  if (options === null) return 0;
  const { events, batch, rounds, concurrency } = options;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (options.build) {
    log('building dist/ (npx tsc -p tsconfig.build.json) …');
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoDir, stdio: 'inherit' });
  }
  const lines = await loadEvents(join(repoDir, '..', 'shared', 'datasets'), events);
  log(
    `${lines.length} events (${(lines.reduce((n, l) => n + l.length + 1, 0) / 1e6).toFixed(1)} MB of NDJSON) per protocol, ${rounds} rounds, ${batch} events a request, ${concurrency} in flight`,
  );

  const servers = await startServers(repoDir, [...benchProtocols, 'control'], log);
  try {
    log(`one server per protocol and an idle control server, load average before: ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
    const perRound = Math.ceil(lines.length / rounds);
    for (let round = 0; round < rounds; round++) {
      const slice = lines.slice(round * perRound, (round + 1) * perRound);
      for (const protocol of benchProtocols) {
        const { server, key, tenantId, totals: t } = servers.get(protocol)!;
        const bodies = [];
        for (let at = 0; at < slice.length; at += batch) bodies.push(encodeRequest(protocol, slice.slice(at, at + batch), BigInt(Date.now()) * 1_000_000n, tenantId));
        const cpuBefore = readCpuSeconds(server.pid) ?? 0;
        const mainBefore = readMainThreadCpuSeconds(server.pid) ?? 0;
        const started = performance.now();
        await sendAll(server.url, key, bodies, concurrency);
        t.wallSeconds += (performance.now() - started) / 1000;
        t.cpuSeconds += (readCpuSeconds(server.pid) ?? 0) - cpuBefore;
        t.mainThreadCpuSeconds += (readMainThreadCpuSeconds(server.pid) ?? 0) - mainBefore;
        // Its merges settle before the next turn, so no turn runs beside another server's merges.
        await waitUntilIdle(server.pid);
        t.events += slice.length;
        t.requests += bodies.length;
      }
      log(`round ${round + 1}/${rounds} done`);
    }
    for (const { server } of servers.values()) await waitUntilIdle(server.pid);
    for (const [protocol, { server, key, cpuAtStart, totals }] of servers) {
      totals.wholeCpuSeconds = (readCpuSeconds(server.pid) ?? 0) - cpuAtStart;
      if (protocol !== 'control') await checkStored(server.url, key, indexOf(protocol), lines.length);
    }
    log(`load average after: ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
    return report(servers, log);
  } catch (error) {
    for (const { dataDir } of servers.values()) log(`the log of ${dataDir} ends with:\n${readFileSync(join(dataDir, 'server.log'), 'utf8').split('\n').slice(-15).join('\n')}`);
    throw error;
  } finally {
    await stopServers(servers);
  }
}

interface ProtocolServer {
  readonly server: VigilServerProcess;
  readonly dataDir: string;
  readonly key: string;
  readonly tenantId: string;
  /** The server's CPU once started and its index created: what the run adds is measured from here. */
  readonly cpuAtStart: number;
  readonly totals: Totals;
}

/**
 * A server of its own for each protocol, with its index: each pays exactly for its own events,
 * the engine's merges of them included (one shared table would merge every protocol's parts
 * together, and the turn after which a big merge lands would pay for it). The control server
 * gets no events: what it uses in the run (timers, housekeeping) every server used too.
 */
async function startServers(
  repoDir: string,
  names: readonly (ShipperProtocol | 'control')[],
  log: (line: string) => void,
): Promise<Map<ShipperProtocol | 'control', ProtocolServer>> {
  const started = await Promise.allSettled(names.map((name) => startServer(repoDir, name)));
  const servers = new Map<ShipperProtocol | 'control', ProtocolServer>();
  started.forEach((outcome, at) => {
    if (outcome.status === 'fulfilled') servers.set(names[at]!, outcome.value);
  });
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) {
    await stopServers(servers);
    throw failed.reason;
  }
  for (const [name, { server }] of servers) log(`${name}: server ${server.url} (pid ${server.pid})`);
  return servers;
}

async function startServer(repoDir: string, name: ShipperProtocol | 'control'): Promise<ProtocolServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `vigil-bench-shippers-${name}-`));
  const server = await VigilServerProcess.start(repoDir, dataDir, { logPath: join(dataDir, 'server.log') });
  try {
    const key = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
    if (name !== 'control') {
      const [cmd, args] = vigilArgv(repoDir, 'index', 'create', indexOf(name), '--tenant', 'default', '--data-dir', dataDir);
      const created = await runMeasured(cmd, args, { cwd: dataDir, env: benchEnv() });
      if (created.exitCode !== 0) throw new Error(`vigil index create failed: ${created.stderr.trim()}`);
    }
    const tenantId = await defaultTenantId(server.url, key);
    await waitUntilIdle(server.pid);
    return { server, dataDir, key, tenantId, cpuAtStart: readCpuSeconds(server.pid) ?? 0, totals: emptyTotals() };
  } catch (error) {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function stopServers(servers: Map<ShipperProtocol | 'control', ProtocolServer>): Promise<void> {
  await Promise.all(
    [...servers.values()].map(async ({ server, dataDir }) => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }),
  );
}

async function sendAll(url: string, key: string, bodies: readonly ReturnType<typeof encodeRequest>[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const request = bodies[next++]!;
      const auth = request.path.startsWith('/services/') ? `Splunk ${key}` : `Bearer ${key}`;
      const send = () => fetch(`${url}${request.path}`, { method: 'POST', headers: { authorization: auth, ...request.headers }, body: request.body });
      // A kept-alive connection the server closed while bodies were being encoded resets the
      // next request before it is read: send it again (the final count catches any duplicate).
      const response = await send().catch((error: unknown) => {
        if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
        return send();
      });
      const text = await response.text();
      if (response.status >= 300 && response.status !== 204) throw new Error(`${request.path} answered ${response.status}: ${text.slice(0, 300)}`);
      if (/"errors":true|"rejected":[1-9]|partialSuccess/.test(text.slice(0, 200))) throw new Error(`${request.path} refused some events: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * The id of the tenant named `default`: requests name it by id (the shipper endpoints also read
 * the name, as /v1's routes do, since 24cff39).
 */
async function defaultTenantId(url: string, key: string): Promise<string> {
  const response = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { tenants?: { id: string; name: string }[] };
  const tenant = body.tenants?.find((t) => t.name === 'default');
  if (tenant === undefined) throw new Error(`GET /v1/me names no tenant "default": ${JSON.stringify(body).slice(0, 300)}`);
  return tenant.id;
}

/** The protocol's index holds every event it was sent. */
async function checkStored(url: string, key: string, index: string, expected: number): Promise<void> {
  const response = await fetch(`${url}/v1/blocking_query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant_id: 'default', query: '* | groupbycount @index', start_time: '1900-01-01T00:00:00Z', end_time: '2262-01-01T00:00:00Z' }),
  });
  const body = (await response.json()) as { results: { rows: { columns: Record<string, unknown> }[] } };
  const counts = body.results.rows.map((row) => `${String(row.columns['@index'])}: ${String(row.columns['@q.count'])}`);
  if (counts.length !== 1 || counts[0] !== `${index}: ${expected}`) throw new Error(`expected ${index}: ${expected} events, found ${counts.join(', ') || 'none'}`);
}

/**
 * Each protocol's CPU per event: its server's CPU over the run, less the control server's (which
 * got no events), over the events it stored.
 */
function report(servers: Map<ShipperProtocol | 'control', ProtocolServer>, log: (line: string) => void): number {
  const control = servers.get('control')!.totals.wholeCpuSeconds;
  const totalsOf = (protocol: ShipperProtocol) => servers.get(protocol)!.totals;
  const perEvent = (protocol: ShipperProtocol) => (totalsOf(protocol).wholeCpuSeconds - control) / totalsOf(protocol).events;
  log('');
  log(`the idle control server used ${control.toFixed(2)} CPU s in the run, taken off every server's figure`);
  log(
    '| protocol | events | requests | wall s | events/s | CPU s while sending | CPU s in all | main thread µs/event | CPU µs/event | × NDJSON | × NDJSON of the same stored events |',
  );
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  let failed = false;
  const references = new Set(benchProtocols.map(storedShapeReference));
  for (const protocol of benchProtocols) {
    const t = totalsOf(protocol);
    const reference = storedShapeReference(protocol);
    const ratio = perEvent(protocol) / perEvent(reference);
    const isReference = references.has(protocol);
    if (!isReference && ratio > targetRatio) failed = true;
    log(
      `| ${protocol} | ${t.events} | ${t.requests} | ${t.wallSeconds.toFixed(1)} | ${Math.round(t.events / t.wallSeconds)} | ${t.cpuSeconds.toFixed(2)} | ${t.wholeCpuSeconds.toFixed(2)} | ${((t.mainThreadCpuSeconds / t.events) * 1e6).toFixed(0)} | ${(perEvent(protocol) * 1e6).toFixed(0)} | ${(perEvent(protocol) / perEvent('ndjson')).toFixed(2)} | ${isReference ? '–' : `${ratio.toFixed(2)} (${reference})`} |`,
    );
  }
  log('');
  log(`target: every protocol at most ${targetRatio.toFixed(2)} × the server CPU per event of NDJSON lines of the events it stores: ${failed ? 'FAIL' : 'PASS'}`);
  return failed ? 1 : 0;
}

/** `count` NDJSON lines drawn from the datasets by share (a source with fewer lines repeats them). */
export async function loadEvents(datasetsDir: string, count: number): Promise<string[]> {
  const out: string[] = [];
  for (const [file, share] of sources) {
    const want = Math.min(Math.ceil(count * share), count - out.length);
    const lines = await readLines(join(datasetsDir, file), want);
    for (let i = 0; i < want && lines.length > 0; i++) out.push(lines[i % lines.length]!);
  }
  return out;
}

async function readLines(path: string, max: number): Promise<string[]> {
  const out: string[] = [];
  const input = createReadStream(path).pipe(createGunzip());
  const reader = createInterface({ input, crlfDelay: Infinity });
  for await (const line of reader) {
    if (line.trim() !== '') out.push(line);
    if (out.length >= max) break;
  }
  reader.close();
  input.destroy();
  return out;
}

/**
 * `npm run bench -- shippers`: the same events sent to one `vigil serve` through every shipper
 * protocol and through `POST /v1/ingest` (NDJSON), in interleaved rounds, measuring the server's
 * CPU time per event (from /proc) and events per second for each; the ratio to NDJSON is the
 * protocol's overhead. Target: at most 1.15 × NDJSON's CPU per event for every protocol.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { readCpuSeconds, runMeasured } from './measured-process.js';
import { benchProtocols, encodeRequest, indexOf, type ShipperProtocol } from './shipper-encodings.js';
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
  cpuSeconds: number;
  wallSeconds: number;
  events: number;
  requests: number;
}

export async function runShippersBench(repoDir: string, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      events: { type: 'string', default: '60000' },
      batch: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '2' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const events = Number(values.events);
  const batch = Number(values.batch);
  const rounds = Number(values.rounds);
  const concurrency = Number(values.concurrency);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (!values['no-build']) {
    log('building dist/ (npx tsc -p tsconfig.build.json) …');
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoDir, stdio: 'inherit' });
  }
  const lines = await loadEvents(join(repoDir, '..', 'shared', 'datasets'), events);
  log(
    `${lines.length} events (${(lines.reduce((n, l) => n + l.length + 1, 0) / 1e6).toFixed(1)} MB of NDJSON) per protocol, ${rounds} rounds, ${batch} events a request, ${concurrency} in flight`,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-shippers-'));
  const server = await VigilServerProcess.start(repoDir, dataDir, { logPath: join(dataDir, 'server.log') });
  try {
    const key = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
    for (const protocol of benchProtocols) {
      const [cmd, args] = vigilArgv(repoDir, 'index', 'create', indexOf(protocol), '--tenant', 'default', '--data-dir', dataDir);
      const created = await runMeasured(cmd, args, { cwd: dataDir, env: benchEnv() });
      if (created.exitCode !== 0) throw new Error(`vigil index create failed: ${created.stderr.trim()}`);
    }
    const tenantId = await defaultTenantId(server.url, key);
    log(`server ${server.url} (pid ${server.pid}), load average before: ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
    const totals = new Map<ShipperProtocol, Totals>(benchProtocols.map((p) => [p, { cpuSeconds: 0, wallSeconds: 0, events: 0, requests: 0 }]));
    const perRound = Math.ceil(lines.length / rounds);
    for (let round = 0; round < rounds; round++) {
      const slice = lines.slice(round * perRound, (round + 1) * perRound);
      for (const protocol of benchProtocols) {
        const t = totals.get(protocol)!;
        const bodies = [];
        for (let at = 0; at < slice.length; at += batch) bodies.push(encodeRequest(protocol, slice.slice(at, at + batch), BigInt(Date.now()) * 1_000_000n, tenantId));
        const cpuBefore = readCpuSeconds(server.pid) ?? 0;
        const started = performance.now();
        await sendAll(server.url, key, bodies, concurrency);
        t.wallSeconds += (performance.now() - started) / 1000;
        t.cpuSeconds += (readCpuSeconds(server.pid) ?? 0) - cpuBefore;
        t.events += slice.length;
        t.requests += bodies.length;
      }
      log(`round ${round + 1}/${rounds} done`);
    }
    await checkStored(server.url, key, lines.length);
    log(`load average after: ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
    return report(totals, log);
  } catch (error) {
    log(`the server's log ends with:\n${readFileSync(join(dataDir, 'server.log'), 'utf8').split('\n').slice(-30).join('\n')}`);
    throw error;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
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

/** Every protocol's index holds every event it was sent. */
async function checkStored(url: string, key: string, expected: number): Promise<void> {
  const response = await fetch(`${url}/v1/blocking_query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant_id: 'default', query: '* | groupbycount @index', start_time: '1900-01-01T00:00:00Z', end_time: '2262-01-01T00:00:00Z' }),
  });
  const body = (await response.json()) as { results: { rows: { columns: Record<string, unknown> }[] } };
  for (const row of body.results.rows) {
    if (Number(row.columns['@q.count']) !== expected) throw new Error(`index ${String(row.columns['@index'])} holds ${String(row.columns['@q.count'])} events, not ${expected}`);
  }
  if (body.results.rows.length !== benchProtocols.length) throw new Error(`expected ${benchProtocols.length} indexes with events, found ${body.results.rows.length}`);
}

function report(totals: Map<ShipperProtocol, Totals>, log: (line: string) => void): number {
  const base = totals.get('ndjson')!;
  const baseCpu = base.cpuSeconds / base.events;
  log('');
  log('| protocol | events | requests | wall s | events/s | server CPU s | CPU µs/event | × NDJSON CPU/event |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|');
  let failed = false;
  for (const [protocol, t] of totals) {
    const perEvent = t.cpuSeconds / t.events;
    const ratio = perEvent / baseCpu;
    if (protocol !== 'ndjson' && ratio > targetRatio) failed = true;
    log(
      `| ${protocol} | ${t.events} | ${t.requests} | ${t.wallSeconds.toFixed(1)} | ${Math.round(t.events / t.wallSeconds)} | ${t.cpuSeconds.toFixed(2)} | ${(perEvent * 1e6).toFixed(0)} | ${ratio.toFixed(2)} |`,
    );
  }
  log('');
  log(`target: every protocol at most ${targetRatio.toFixed(2)} × NDJSON's server CPU per event: ${failed ? 'FAIL' : 'PASS'}`);
  return failed ? 1 : 0;
}

/** `count` NDJSON lines drawn from the datasets by share (a source with fewer lines repeats them). */
async function loadEvents(datasetsDir: string, count: number): Promise<string[]> {
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

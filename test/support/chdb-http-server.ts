/**
 * A ClickHouse HTTP interface served from chDB, for tests only: the ClickHouse server adapter
 * (src/engine/clickhouse) runs its contract suites against it in `npm test` when no real server
 * is given (CLICKHOUSE_URL), and several Vigil servers share it as one engine endpoint, the way
 * they share a ClickHouse server in production. It speaks the part of the protocol the adapter
 * uses: the statement as the POST body (or the `query` parameter, the body then being an
 * insert's data), `database`, `X-ClickHouse-Format`, settings as URL parameters on inserts, and
 * errors as a non-200 status with `X-ClickHouse-Exception-Code` and ClickHouse's message.
 *
 * Run as a process of its own (chDB opens one data directory per process):
 *   node --import tsx test/support/chdb-http-server.ts DATA_DIR [PORT]
 * It prints `listening <port>` once it answers.
 *
 * One test hook: a statement whose text holds `vigiltestslowquery` waits 30 s before it runs
 * (a KILL QUERY naming its log_comment ends the wait with code 394), so a test can poll and
 * cancel a query that is really running on the engine's side.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'chdb';
import { sqlString } from '../../src/core/index.js';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const slowToken = 'vigiltestslowquery';
const slowMs = 30_000;
// Settings that only steer the HTTP exchange; this server always answers once the statement ends.
const httpOnlySettings = new Set(['wait_end_of_query', 'cancel_http_readonly_queries_on_client_close', 'query', 'database', 'default_format']);

const [dataDir, portArg] = process.argv.slice(2);
if (dataDir === undefined) throw new Error('usage: chdb-http-server.ts DATA_DIR [PORT]');

/** Sessions on the data dir; each remembers its current database. The control session runs KILL and system.processes. */
interface PooledSession {
  readonly session: Session;
  database: string;
}
const pool: PooledSession[] = Array.from({ length: 6 }, () => ({ session: new Session(dataDir), database: 'default' }));
const idle = [...pool];
const waiting: ((session: PooledSession) => void)[] = [];
const control: PooledSession = { session: new Session(dataDir), database: 'default' };
let controlChain: Promise<unknown> = Promise.resolve();
/** Delayed statements by log_comment, ended early by a KILL naming it. */
const delayed = new Map<string, () => void>();

function acquire(): Promise<PooledSession> {
  const session = idle.pop();
  return session ? Promise.resolve(session) : new Promise((resolve) => waiting.push(resolve));
}

function release(session: PooledSession): void {
  const next = waiting.shift();
  if (next) next(session);
  else idle.push(session);
}

class ClickHouseFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function failureOf(error: unknown): ClickHouseFailure {
  if (error instanceof ClickHouseFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = /Code:\s*(\d+)/.exec(message)?.[1];
  return new ClickHouseFailure(message.trim(), code === undefined ? 1001 : Number(code));
}

async function run(pooled: PooledSession, database: string, sql: string, format: string): Promise<Uint8Array> {
  if (pooled.database !== database) {
    await pooled.session.queryAsync(`USE ${quoteIdentifier(database)}`, { format: 'TabSeparated' });
    pooled.database = database;
  }
  try {
    return (await pooled.session.queryAsync(sql, { format })).bytes();
  } catch (error) {
    // chDB keeps a failed statement's partial output and prepends it to the next answer.
    await pooled.session.queryAsync('SELECT 1', { format: 'TabSeparated' }).catch(() => undefined);
    throw error;
  }
}

function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
}

/** Statements that must not wait behind the pool: cancelling and watching what runs. */
function isControl(sql: string): boolean {
  return /^\s*KILL\s+QUERY\b/i.test(sql) || /\bsystem\.processes\b/i.test(sql);
}

function logCommentOf(sql: string): string | undefined {
  return /log_comment\s*=\s*'((?:[^'\\]|\\.)*)'/.exec(sql)?.[1];
}

async function waitIfSlow(sql: string): Promise<void> {
  if (!sql.includes(slowToken)) return;
  const tag = logCommentOf(sql) ?? '';
  const killed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), slowMs);
    delayed.set(tag, () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  delayed.delete(tag);
  if (killed) throw new ClickHouseFailure('Code: 394. DB::Exception: Query was cancelled. (QUERY_WAS_CANCELLED)', 394);
}

async function statement(sql: string, database: string, format: string): Promise<Uint8Array> {
  if (isControl(sql)) {
    const tag = /^\s*KILL\s+QUERY\b/i.test(sql) ? logCommentOf(sql) : undefined;
    if (tag !== undefined) delayed.get(tag)?.();
    const result = controlChain.then(() => run(control, database, sql, format));
    controlChain = result.catch(() => undefined);
    return result;
  }
  await waitIfSlow(sql);
  const pooled = await acquire();
  try {
    return await run(pooled, database, sql, format);
  } finally {
    release(pooled);
  }
}

/**
 * Streams a statement's answer as it is produced (the adapter's `stream()`, which does not ask to
 * wait for the end): a client that goes away cancels the chDB stream, which stops the query.
 * An error after the first bytes is appended as text, as ClickHouse does.
 */
async function streamStatement(sql: string, database: string, format: string, response: ServerResponse): Promise<void> {
  await waitIfSlow(sql);
  const pooled = await acquire();
  const stream = (async () => {
    if (pooled.database !== database) {
      await pooled.session.queryAsync(`USE ${quoteIdentifier(database)}`, { format: 'TabSeparated' });
      pooled.database = database;
    }
    return pooled.session.queryStream(sql, { format });
  })();
  let chunks: ReturnType<Session['queryStream']> | undefined;
  const gone = new Promise<void>((resolve) => response.once('close', resolve));
  try {
    chunks = await stream;
    const iterator = chunks[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), gone.then(() => null)]);
      if (next === null || next.done) break;
      if (!response.headersSent) response.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' });
      if (!response.write(Buffer.from(next.value.raw()))) await Promise.race([new Promise((resolve) => response.once('drain', resolve)), gone]);
      if (response.destroyed) break;
    }
    if (!response.headersSent) response.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' });
    response.end();
  } catch (error) {
    const failure = failureOf(error);
    await pooled.session.queryAsync('SELECT 1', { format: 'TabSeparated' }).catch(() => undefined);
    if (!response.headersSent) {
      response.writeHead(500, { 'X-ClickHouse-Exception-Code': String(failure.code), 'content-type': 'text/plain; charset=UTF-8' }).end(`${failure.message}\n`);
    } else if (!response.destroyed) response.end(`\n${failure.message}\n`);
  } finally {
    if (chunks && !chunks.closed) {
      chunks.cancel();
      // chDB 3.4 lists a cancelled stream in system.processes until its session runs another statement.
      await pooled.session.queryAsync('SELECT 1', { format: 'TabSeparated' }).catch(() => undefined);
    }
    release(pooled);
  }
}

/**
 * An insert with its data as the body: `INSERT INTO t [(columns)] FORMAT f`. Text formats go
 * through chDB's inline insert; Native, binary, which that path mangles on certain bytes, is read
 * from a file (its blocks name their columns' types), as ClickHouse would read the body.
 */
async function insert(query: string, data: Buffer, database: string, settings: Record<string, string>): Promise<void> {
  const match = /^\s*INSERT\s+INTO\s+(\S+)\s*(\([^)]*\))?\s+FORMAT\s+(\w+)\s*$/i.exec(query);
  if (!match) throw new ClickHouseFailure(`Code: 62. DB::Exception: test server: cannot read insert statement ${JSON.stringify(query)}. (SYNTAX_ERROR)`, 62);
  const [, name = '', columnList = '', format = ''] = match;
  const table = name.includes('.') ? name : `${database}.${name}`;
  const pooled = await acquire();
  try {
    if (pooled.database !== database) {
      await pooled.session.queryAsync(`USE ${quoteIdentifier(database)}`, { format: 'TabSeparated' });
      pooled.database = database;
    }
    if (format !== 'Native') {
      await pooled.session.insert({ table, values: data.toString('utf8'), format: format as 'JSONEachRow', settings });
      return;
    }
    const file = join(dataDir as string, `insert-${randomUUID()}.native`);
    await writeFile(file, data);
    try {
      const settingsText = Object.entries(settings).map(([key, value]) => `${key} = ${/^-?\d+$/.test(value) ? value : sqlString(value)}`);
      await pooled.session.queryAsync(
        `INSERT INTO ${table} ${columnList} SELECT * FROM file(${sqlString(file)}, Native)${settingsText.length ? ` SETTINGS ${settingsText.join(', ')}` : ''}`,
        { format: 'TabSeparated' },
      );
    } finally {
      await rm(file, { force: true });
    }
  } finally {
    release(pooled);
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://test-server');
  if (request.method === 'GET' && (url.pathname === '/ping' || url.pathname === '/')) {
    response.end('Ok.\n');
    return;
  }
  const data = await readBody(request);
  const body = data.toString('utf8');
  const database = url.searchParams.get('database') ?? 'default';
  const format = String(request.headers['x-clickhouse-format'] ?? url.searchParams.get('default_format') ?? 'TabSeparated');
  const settings: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!httpOnlySettings.has(name)) settings[name] = value;
  const query = url.searchParams.get('query');
  // A client closing early (cancel_http_readonly_queries_on_client_close) kills its statement.
  const tag = logCommentOf(body);
  response.on('close', () => {
    if (!response.writableFinished && tag !== undefined) {
      void statement(`KILL QUERY WHERE Settings['log_comment'] = '${tag}' ASYNC`, 'default', 'TabSeparated').catch(() => undefined);
    }
  });
  try {
    if (query !== null) {
      await insert(query, data, database, settings);
      response.writeHead(200).end();
      return;
    }
    if (url.searchParams.get('wait_end_of_query') !== '1' && !isControl(body)) {
      await streamStatement(body, database, format, response);
      return;
    }
    if (Object.keys(settings).length > 0) {
      throw new ClickHouseFailure(`Code: 115. DB::Exception: test server: settings as URL parameters are taken on inserts only, got ${Object.keys(settings).join(', ')}. (UNKNOWN_SETTING)`, 115);
    }
    const answer = await statement(body, database, format);
    // A client that went away (a cancelled stream) gets nothing; its statement was killed by tag.
    if (!response.destroyed) response.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end(Buffer.from(answer));
  } catch (error) {
    const failure = failureOf(error);
    if (!response.destroyed) {
      response.writeHead(failure.code === 60 ? 404 : 500, { 'X-ClickHouse-Exception-Code': String(failure.code), 'content-type': 'text/plain; charset=UTF-8' }).end(`${failure.message}\n`);
    }
  }
}

const server = createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    if (!response.headersSent) response.writeHead(500).end(String(error));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(portArg ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});

function shutdown(): void {
  server.close();
  for (const { session } of [...pool, control]) session.close();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

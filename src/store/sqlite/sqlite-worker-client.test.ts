import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ErrorCodes, StoreError } from '../../core/index.js';
import { SqliteWorkerClient } from './sqlite-worker-client.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-sqlite-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opened: SqliteWorkerClient[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function open(name: string, busyTimeoutMs: number, statementTimeoutMs: number): Promise<SqliteWorkerClient> {
  const client = await SqliteWorkerClient.open(join(dir, name), { busyTimeoutMs, statementTimeoutMs });
  opened.push(client);
  return client;
}

describe('SqliteWorkerClient', () => {
  it('gives up on a statement past its time limit with unavailable, while the event loop keeps running, and answers again once the thread is free', async () => {
    // Another connection holds the write lock: the writer waits busy_timeout (1.5 s) in the
    // thread, longer than its caller's limit (0.2 s). On the main thread this wait blocked every request.
    const holder = await open('locked.db', 1500, 10_000);
    const writer = await open('locked.db', 1500, 200);
    await holder.run('create table t (n integer)', []);
    await holder.run('begin immediate', []);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const failure = await writer.run('insert into t values (1)', []).catch((error: unknown) => error);
    clearInterval(ticker);
    expect(failure).toBeInstanceOf(StoreError);
    expect(failure).toMatchObject({ code: ErrorCodes.unavailable, message: expect.stringMatching(/did not answer within/) });
    expect(ticks).toBeGreaterThan(0);

    await holder.run('commit', []); // queued behind the late insert: it runs once that one failed (SQLITE_BUSY)
    await writer.run('insert into t values (2)', []);
    expect((await holder.run('select n from t', [])).rows).toEqual([{ n: 2 }]);
  });

  it('reports a full database as insufficient_storage, and takes writes again once there is room', async () => {
    const client = await open('full.db', 1000, 10_000);
    await client.run('create table t (v blob)', []);
    const pages = (await client.run('pragma page_count', [])).rows[0] as { page_count: number };
    await client.run(`pragma max_page_count = ${pages.page_count + 4}`, []);
    const failure = await client.run('insert into t values (zeroblob(1000000))', []).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreError);
    expect(failure).toMatchObject({ code: ErrorCodes.insufficientStorage, message: expect.stringMatching(/the disk holding the data dir is full; free space, then retry/) });

    await client.run('pragma max_page_count = 1000000', []);
    await client.run('insert into t values (zeroblob(1000000))', []);
    expect((await client.run('select count(*) as n from t', [])).rows).toEqual([{ n: 1 }]);
  });

  it("keeps SQLite's code of other failures, for the repositories to classify", async () => {
    const client = await open('unique.db', 1000, 10_000);
    await client.run('create table t (n integer primary key)', []);
    await client.run('insert into t values (1)', []);
    const failure = await client.run('insert into t values (1)', []).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(StoreError);
    expect(failure).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
  });

  it('names the cause when the file cannot be opened', async () => {
    const path = join(dir, 'missing', 'vigil.db');
    await expect(SqliteWorkerClient.open(path, { busyTimeoutMs: 1000, statementTimeoutMs: 10_000 })).rejects.toThrow(
      `cannot open sqlite store ${path}: Cannot open database because the directory does not exist`,
    );
  });
});

import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../core/index.js';
import { describeStoreContract } from '../testing/store-contract.js';
import { anApiKey, anIndex } from '../testing/store-fixtures.js';
import { expectConsecutiveRanges } from '../testing/tenant-contract.js';
import { createSqliteStore } from './index.js';

const tempDirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-store-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describeStoreContract('sqlite :memory:', () => createSqliteStore(':memory:'));
describeStoreContract('sqlite file', async () => createSqliteStore(join(await tempDir(), 'vigil.db')));

describe('sqlite store', () => {
  it('puts the file in WAL mode', async () => {
    const path = join(await tempDir(), 'vigil.db');
    const store = await createSqliteStore(path);
    await store.migrate();
    await store.close();
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('raises StoreError naming the cause when the directory is missing', async () => {
    const path = join(await tempDir(), 'missing', 'vigil.db');
    await expect(createSqliteStore(path)).rejects.toThrow(StoreError);
    await expect(createSqliteStore(path)).rejects.toThrow(/directory does not exist/);
  });

  it('raises StoreError when the file is not a database', async () => {
    const path = join(await tempDir(), 'notes.txt');
    await writeFile(path, 'these are not the pages you are looking for '.repeat(200));
    await expect(createSqliteStore(path)).rejects.toThrow(StoreError);
  });

  it('refuses to run against a schema migrated by a newer release', async () => {
    const path = join(await tempDir(), 'vigil.db');
    const store = await createSqliteStore(path);
    await store.migrate();
    const raw = new Database(path);
    raw.prepare("insert into kysely_migration (name, timestamp) values ('9999-from-the-future', ?)").run(new Date().toISOString());
    raw.close();
    await expect(store.migrate()).rejects.toThrow(StoreError);
    await store.close();
  });

  it('two stores on one file, like the server and the CLI, see each other and share sequences', async () => {
    const path = join(await tempDir(), 'vigil.db');
    const server = await createSqliteStore(path);
    const cli = await createSqliteStore(path);
    try {
      await server.migrate();
      await cli.migrate();
      await cli.tenants.ensure('acme', 1);
      expect((await server.tenants.ensure('acme', 2)).created).toBe(false);

      const index = anIndex('acme', 'web');
      await cli.indexes.insert(index);
      expect(await server.indexes.getByName('acme', 'web')).toEqual(index);
      await expect(server.indexes.insert(anIndex('acme', 'web'))).rejects.toThrow('index "web" already exists');

      const key = anApiKey();
      await server.apiKeys.insert(key);
      await cli.apiKeys.revoke(key.id, 5);
      expect(await server.apiKeys.findActiveByHash(key.keyHash)).toBeNull();

      const counts = [4, 1, 3, 2, 5, 1, 2, 6];
      const firsts = await Promise.all(counts.map((count, i) => (i % 2 === 0 ? server : cli).tenants.reserveSequence('acme', count)));
      expectConsecutiveRanges(firsts.map((first, i) => [first, counts[i] ?? 0] as const));
    } finally {
      await server.close();
      await cli.close();
    }
  });

  it('processes sharing the file migrate once, reserve disjoint sequences and agree on unique names', async () => {
    const path = join(await tempDir(), 'vigil.db');
    const worker = fileURLToPath(new URL('./testing/shared-file-worker.ts', import.meta.url));
    const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
    const children = [1, 2, 3].map(() => {
      const child = spawn(process.execPath, ['--import', 'tsx', worker, path, '25'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}: ${stderr}`)))));
      return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), exited };
    });
    for (const { lines } of children) expect((await lines.next()).value).toBe('ready');
    for (const { child } of children) child.stdin.end('go\n');
    const reports = await Promise.all(
      children.map(async ({ lines, exited }) => {
        const line = (await lines.next()).value as string;
        await exited;
        return JSON.parse(line) as { ranges: [string, number][]; index: string };
      }),
    );
    expectConsecutiveRanges(reports.flatMap((r) => r.ranges.map(([first, count]) => [BigInt(first), count] as const)));
    expect(reports.map((r) => r.index).sort()).toEqual(['conflict', 'conflict', 'created']);
  });
});

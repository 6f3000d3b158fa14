/**
 * `npm run bench -- store [--ops N] [--rounds R]`: the cost of running the metadata store's
 * statements in their own thread (src/store/sqlite/sqlite-thread.js) instead of on the event
 * loop. The same KyselyStore runs N reads (`tenants.get`) and N writes (`reserveSequence`) on a
 * file database, once through the store's thread and once through better-sqlite3 on the main
 * thread (the baseline, as the store ran before), alternating, R rounds each. Prints CPU time of
 * the whole process (every thread) and wall time per statement, medians of the rounds, and the
 * same-run ratios thread / baseline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { systemClock } from '../src/core/index.js';
import { KyselyStore } from '../src/store/kysely/kysely-store.js';
import type { StoreDatabase } from '../src/store/store-database.js';
import type { Store } from '../src/store/store.js';
import { createSqliteStore } from '../src/store/sqlite/index.js';

interface Figures {
  readonly cpuUs: number;
  readonly wallUs: number;
}

export async function runStoreBench(_repoDir: string, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { ops: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' } } });
  const ops = Number(values.ops);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(ops) || ops < 1 || !Number.isInteger(rounds) || rounds < 1) {
    process.stderr.write('usage: npm run bench -- store [--ops N] [--rounds R]\n');
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'vigil-store-bench-'));
  try {
    const thread = await prepared(await createSqliteStore(join(dir, 'thread.db')));
    const baseline = await prepared(mainThreadStore(join(dir, 'baseline.db')));
    const results = { thread: { read: [] as Figures[], write: [] as Figures[] }, baseline: { read: [] as Figures[], write: [] as Figures[] } };
    for (let round = 0; round < rounds; round++) {
      for (const [name, store] of [
        ['thread', thread],
        ['baseline', baseline],
      ] as const) {
        results[name].read.push(await measure(ops, () => store.tenants.get('acme')));
        results[name].write.push(await measure(ops, () => store.tenants.reserveSequence('acme', 1)));
      }
    }
    await thread.close();
    await baseline.close();
    process.stdout.write(`store: ${ops} statements per kind, median of ${rounds} rounds (CPU of every thread of the process)\n`);
    for (const kind of ['read', 'write'] as const) {
      const t = median(results.thread[kind]);
      const b = median(results.baseline[kind]);
      process.stdout.write(
        `  ${kind === 'read' ? 'read  (tenants.get)      ' : 'write (reserveSequence)  '}` +
          `thread ${t.cpuUs.toFixed(1)} µs CPU, ${t.wallUs.toFixed(1)} µs wall; ` +
          `main thread ${b.cpuUs.toFixed(1)} µs CPU, ${b.wallUs.toFixed(1)} µs wall; ` +
          `ratio CPU ${(t.cpuUs / b.cpuUs).toFixed(2)}, wall ${(t.wallUs / b.wallUs).toFixed(2)}\n`,
      );
    }
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The store as it ran before: better-sqlite3 on the main thread, the same pragmas. */
function mainThreadStore(path: string): Store {
  const database = new Database(path, { timeout: 5000 });
  database.pragma('busy_timeout = 5000');
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database }) });
  return new KyselyStore(db, { classifyViolation: () => null, clock: systemClock });
}

async function prepared(store: Store): Promise<Store> {
  await store.migrate();
  await store.tenants.ensure('acme', Date.now());
  return store;
}

async function measure(ops: number, statement: () => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < Math.min(200, ops); i++) await statement(); // warm-up: statement cache, JIT
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < ops; i++) await statement();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / ops, wallUs: (wallMs * 1000) / ops };
}

function median(figures: readonly Figures[]): Figures {
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { cpuUs: middle(figures.map((f) => f.cpuUs)), wallUs: middle(figures.map((f) => f.wallUs)) };
}

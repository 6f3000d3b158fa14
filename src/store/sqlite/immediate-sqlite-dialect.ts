import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { SqliteWorkerClient } from './sqlite-worker-client.js';

/**
 * Kysely's SQLite dialect over the store's SQLite thread (SqliteWorkerClient), so that no store
 * call ever blocks the event loop, with two changes for a file shared by several processes:
 *
 * - Transactions begin IMMEDIATE, taking the write lock up front (waiting up to busy_timeout).
 *   A plain BEGIN starts as a reader and fails with SQLITE_BUSY, without waiting, when it later
 *   writes after another process has committed.
 * - Migrations run in one transaction. Kysely's adapter declines transactional DDL for SQLite and
 *   takes no migration lock, so a server and a CLI starting together could both apply the same
 *   migration; SQLite does run DDL transactionally, and the IMMEDIATE transaction is the lock.
 */
export class ImmediateSqliteDialect implements Dialect {
  constructor(private readonly client: SqliteWorkerClient) {}

  createDriver(): Driver {
    return new WorkerSqliteDriver(this.client);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** One connection (SQLite's), lent to one caller at a time: a transaction holds it until it ends. */
class WorkerSqliteDriver implements Driver {
  private readonly connection: WorkerSqliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private releaseHeld: (() => void) | null = null;

  constructor(private readonly client: SqliteWorkerClient) {
    this.connection = new WorkerSqliteConnection(client);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.releaseHeld = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.releaseHeld;
    this.releaseHeld = null;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}

class WorkerSqliteConnection implements DatabaseConnection {
  constructor(private readonly client: SqliteWorkerClient) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.run(compiledQuery.sql, compiledQuery.parameters);
    return result as QueryResult<R>;
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: no caller streams
    throw new Error('the SQLite store does not stream query results');
  }
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

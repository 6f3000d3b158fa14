import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
} from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Kysely's SQLite dialect with two changes for a file shared by several processes:
 *
 * - Transactions begin IMMEDIATE, taking the write lock up front (waiting up to busy_timeout).
 *   A plain BEGIN starts as a reader and fails with SQLITE_BUSY, without waiting, when it later
 *   writes after another process has committed.
 * - Migrations run in one transaction. Kysely's adapter declines transactional DDL for SQLite and
 *   takes no migration lock, so a server and a CLI starting together could both apply the same
 *   migration; SQLite does run DDL transactionally, and the IMMEDIATE transaction is the lock.
 */
export class ImmediateSqliteDialect implements Dialect {
  constructor(private readonly database: BetterSqlite3.Database) {}

  createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.database });
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

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

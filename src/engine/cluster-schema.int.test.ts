import { queryAsync } from 'chdb';
import { describe, expect, it } from 'vitest';
import { sqlString } from '../core/index.js';
import { createSchemaStatements, mutationTarget } from './schema.js';
import { schemaMigrations } from './schema-migrations.js';

// No ClickHouse cluster runs here (docs/scale-out.md says what ran and what did not): the
// cluster DDL is checked by its golden file and, here, by ClickHouse's own parser in chDB.
describe('cluster schema', () => {
  it('every statement parses in ClickHouse', async () => {
    const statements = [
      ...createSchemaStatements({ cluster: 'events' }),
      ...schemaMigrations({ cluster: 'events' }).flatMap((m) => m.statements),
      `DELETE FROM ${mutationTarget('logs', { cluster: 'events' })} WHERE tenant = 'a'`,
      `OPTIMIZE TABLE ${mutationTarget('logs', { cluster: 'events' })} FINAL`,
    ];
    for (const statement of statements) {
      const formatted = (await queryAsync(`SELECT formatQuerySingleLine(${sqlString(statement)})`, { format: 'TabSeparatedRaw' })).text().trim();
      expect(formatted, statement).toMatch(/^(CREATE|ALTER|TRUNCATE|INSERT|DELETE|OPTIMIZE|DROP) /);
    }
  });
});

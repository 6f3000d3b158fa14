/**
 * `vigil migrate-store` as a team that outgrows one machine runs it: an embedded data dir made
 * with the CLI (a key for a tenant) is copied into an empty PostgreSQL database, the CLI then reads the copy through
 * store_url, and a second copy into the now filled database is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../support/shared-services.js';
import { runVigil } from '../support/vigil-process.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-migrate-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('copies an embedded store into PostgreSQL, which the CLI then reads through store_url', async () => {
  const dataDir = join(dir, 'data');
  const key = await runVigil(['keys', 'create', '--tenant', 'acme', '--name', 'ops', '--json'], { dataDir });
  expect(key.code).toBe(0);
  const url = await freshPostgresDatabase();
  const password = new URL(url).password;

  const copied = await runVigil(['migrate-store', '--to', url], { dataDir });
  expect(copied.stderr).toContain('copied tenants: 1\n');
  expect(copied.code).toBe(0);
  // The tenant, its key, the tenant's internal indexes, the key's creation in the audit trail.
  expect(copied.stdout).toMatch(/^TABLE\s+ROWS\ntenants\s+1\napi_keys\s+1\nindexes\s+2\naudit_outbox\s+1\nchat_integrations\s+0\n/);
  expect(copied.stdout).toContain(`Start every server with store_url (VIGIL_STORE_URL) set to it and the secrets key of this data dir`);
  expect(copied.stdout + copied.stderr).not.toContain(`:${password}@`);

  // The copy is the store now: the CLI reads the key from PostgreSQL.
  const env = { VIGIL_STORE_URL: url };
  const keys = await runVigil(['keys', 'list', '--json'], { dataDir, env });
  expect(JSON.parse(keys.stdout).map((k: { id: string }) => k.id)).toEqual([JSON.parse(key.stdout).id]);

  // Again, with the target from store_url: refused.
  const again = await runVigil(['migrate-store'], { dataDir, env });
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/^vigil: the target store is not empty: tenants \(1\), api_keys \(1\), indexes \(2\), audit_outbox \(1\);/);
}, 240_000);

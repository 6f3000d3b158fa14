import { beforeEach, describe, expect, it } from 'vitest';
import type { Services } from '../../services/index.js';
import { createSqliteStore } from '../../store/sqlite/index.js';
import { runVigil } from '../testing/run-vigil.js';
import { storeOnlyServices } from '../testing/store-only-services.js';

// `vigil keys create` and `vigil index create` on the store alone.
let services: Services;
beforeEach(async () => {
  const store = await createSqliteStore(':memory:');
  await store.migrate();
  services = storeOnlyServices(store, Date.parse('2026-11-21T12:00:00Z'));
  await services.tenants.ensure('default');
});
const vigil = (argv: string[]) => runVigil(argv, { openServices: async () => ({ services, close: async () => {} }) });

describe('vigil keys create', () => {
  it('refuses --admin with --tenant instead of dropping the tenant, and creates no key', async () => {
    const run = await vigil(['keys', 'create', '--admin', '--tenant', 'default']);
    expect(run.status).toBe(2);
    expect(run.err).toBe('vigil: --admin makes a key for every tenant; give either --admin or --tenant, not both (tenant)\n');
    expect(await services.keys.list()).toEqual([]);
  });

  it('still makes an admin key with --admin alone', async () => {
    const run = await vigil(['keys', 'create', '--admin', '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.out).tenants).toEqual(['*']);
  });
});

describe('vigil index create --json', () => {
  it('prints created_at and updated_at, as the API object has', async () => {
    const run = await vigil(['index', 'create', 'web', '--tenant', 'default', '--json']);
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.out);
    expect(printed).toMatchObject({ name: 'web', created_at: '2026-11-21T12:00:00Z', updated_at: '2026-11-21T12:00:00Z' });
  });
});

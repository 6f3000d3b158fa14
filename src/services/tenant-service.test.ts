import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, isUuid } from '../core/index.js';
import type { Store } from '../store/index.js';
import { createSqliteStore } from '../store/sqlite/index.js';
import { TenantService } from './tenant-service.js';

let store: Store;
let tenants: TenantService;
beforeEach(async () => {
  store = await createSqliteStore(':memory:');
  await store.migrate();
  tenants = new TenantService(store, new ManualClock(0));
});

describe('TenantService names and ids', () => {
  it('creates the tenant named default under a UUID id, once, with its system indexes', async () => {
    const first = await tenants.ensure('default');
    expect(isUuid(first.id)).toBe(true);
    expect((await tenants.ensure('default')).id).toBe(first.id);
    expect((await tenants.ensure(first.id)).id).toBe(first.id);
    expect(await store.tenants.get('default')).toBeNull();
    expect((await tenants.systemIndex(first.id, '_audit'))?.kind).toBe('system');
  });

  it('keeps a tenant an older data dir created with id default, and finds it by that name', async () => {
    await store.tenants.ensure('default', 0);
    expect((await tenants.ensure('default')).id).toBe('default');
    expect(await tenants.resolve('default')).toBe('default');
  });

  it('creates other tenants under the name they are given, as before', async () => {
    expect((await tenants.ensure('acme')).id).toBe('acme');
    expect(await tenants.resolve('acme')).toBe('acme');
  });

  it('resolves an id, then a name, and leaves an unknown reference as it is', async () => {
    const bootstrap = await tenants.ensure('default');
    expect(await tenants.resolve(bootstrap.id)).toBe(bootstrap.id);
    expect(await tenants.resolve('default')).toBe(bootstrap.id);
    expect(await tenants.resolve('globex')).toBe('globex');
    expect(await store.tenants.get('globex')).toBeNull();
  });

  it('makes the default tenant when a reference to it comes first', async () => {
    const id = await tenants.resolve('default');
    expect(isUuid(id)).toBe(true);
    expect((await tenants.ensure('default')).id).toBe(id);
  });
});

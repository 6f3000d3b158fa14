import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../core/index.js';
import { describeStoreContract } from '../testing/store-contract.js';
import { dropReleasedPostgresSchemas, freshPostgresDatabase, releasePostgresSchema, reusablePostgresSchema } from '../../../test/support/shared-services.js';
import { createPostgresStore } from './index.js';

// Every store of the suite lives in a schema of its own in the run's one PostgreSQL. A closed
// store's schema is emptied and serves the next store, already migrated: the suite migrates a
// handful of schemas instead of one per test (the migrations themselves are checked by the
// migration contract and by the first store on each schema).
describeStoreContract('postgresql', async () => {
  const { url, schema } = await reusablePostgresSchema();
  const store = await createPostgresStore(url, { schema, poolSize: 4 });
  const close = store.close.bind(store);
  return Object.assign(store, {
    close: async () => {
      await close();
      await releasePostgresSchema(schema);
    },
  });
});
afterAll(dropReleasedPostgresSchemas);

describe('postgresql store', () => {
  it('refuses a database that does not sort text in byte order, saying how to create one', async () => {
    const url = await freshPostgresDatabase({ collate: 'en_US.utf8' }).catch(() => null);
    // Only where the server has that locale; byte order is otherwise the only choice anyway.
    if (url === null) return;
    const error = await createPostgresStore(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/LC_COLLATE 'C'/);
  });

  it('names the server but never the password when it cannot connect', async () => {
    const error = await createPostgresStore('postgres://vigil:hunter2@127.0.0.1:1/vigil').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/cannot open postgresql store postgres:\/\/vigil@127\.0\.0\.1:1\/vigil/);
    expect((error as Error).message).not.toContain('hunter2');
  });
});

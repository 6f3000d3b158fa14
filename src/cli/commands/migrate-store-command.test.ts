import { describe, expect, it } from 'vitest';
import type { VigilConfig } from '../../config/index.js';
import { runVigil } from '../testing/run-vigil.js';

const embedded = {
  dataDir: '/srv/vigil',
  store: { kind: 'sqlite', path: '/srv/vigil/vigil.db' },
  security: { secretsKey: { kind: 'file', path: '/srv/vigil/secrets.key' } },
} as unknown as VigilConfig;
const copied = {
  tables: [
    { table: 'tenants', rows: 2 },
    { table: 'api_keys', rows: 3 },
  ],
  target: 'postgres://vigil@db:5432/vigil',
};

describe('vigil migrate-store', () => {
  it('copies into the store --to names, prints the rows per table and what the servers need next', async () => {
    const calls: string[] = [];
    const run = await runVigil(['migrate-store', '--to', 'postgres://vigil:pw@db:5432/vigil'], {
      loadConfig: () => embedded,
      copyEmbeddedStore: async (_, url, onTable) => {
        calls.push(url);
        onTable('tenants', 2);
        return copied;
      },
    });
    expect(run.status).toBe(0);
    expect(calls).toEqual(['postgres://vigil:pw@db:5432/vigil']);
    expect(run.err).toBe('copied tenants: 2\n');
    expect(run.out).toBe(
      'TABLE     ROWS\ntenants   2\napi_keys  3\n\n' +
        'copied 5 rows into postgres://vigil@db:5432/vigil.\n' +
        'Start every server with store_url (VIGIL_STORE_URL) set to it and the secrets key of this data dir (VIGIL_SECRETS_KEY set to the contents of /srv/vigil/secrets.key): it opens the sink and chat secrets.\n' +
        "The events stay in this data dir's engine; docs/scale-out.md says how to move them.\n",
    );
  });

  it('prints JSON with --json, taking the target from store_url', async () => {
    const fromConfig = { ...embedded, store: { kind: 'postgres', url: 'postgres://vigil:pw@db:5432/vigil' } } as VigilConfig;
    const run = await runVigil(['migrate-store', '--json'], { loadConfig: () => fromConfig, copyEmbeddedStore: async () => copied });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.out)).toEqual({ target: 'postgres://vigil@db:5432/vigil', rows: 5, tables: { tenants: 2, api_keys: 3 } });
  });

  it('needs a PostgreSQL URL', async () => {
    const copy = async () => Promise.reject(new Error('must not copy'));
    const none = await runVigil(['migrate-store'], { loadConfig: () => embedded, copyEmbeddedStore: copy });
    expect(none).toEqual({ status: 2, out: '', err: 'vigil: give the PostgreSQL store to copy into: --to postgres://… or store_url (VIGIL_STORE_URL) (to)\n' });
    const mysql = await runVigil(['migrate-store', '--to', 'mysql://db/vigil'], { loadConfig: () => embedded, copyEmbeddedStore: copy });
    expect(mysql).toEqual({ status: 2, out: '', err: 'vigil: --to must be a postgres:// (or postgresql://) URL (to)\n' });
  });

  it('refuses while a server runs on the data dir, which would go on writing to the embedded store', async () => {
    const run = await runVigil(['migrate-store', '--to', 'postgres://db/vigil'], {
      loadConfig: () => embedded,
      runningServer: () => ({ url: 'http://127.0.0.1:8080', pid: 4242 }),
      copyEmbeddedStore: async () => Promise.reject(new Error('must not copy')),
    });
    expect(run).toEqual({
      status: 1,
      out: '',
      err: 'vigil: a server (pid 4242, http://127.0.0.1:8080) runs on /srv/vigil; stop it first, or what it writes after the copy is lost\n',
    });
  });
});

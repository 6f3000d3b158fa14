import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { sharedClickHouseUrl } from '../../../test/support/shared-services.js';
import { describeEngineContract } from '../testing/engine-contract.js';
import { ClickHouseHttpEngine } from './clickhouse-http-engine.js';

// The server adapter runs the whole engine contract over the HTTP interface on every `npm test`:
// against the ClickHouse server CLICKHOUSE_URL names, or else against the run's chDB-backed
// stand-in that speaks ClickHouse's HTTP protocol (test/support/chdb-http-server.ts). Each run
// uses a fresh database and drops it afterwards.
describe('clickhouse server over http', () => {
  const database = `vigil_test_${randomUUID().replaceAll('-', '')}`;
  let url = '';
  let admin: ClickHouseHttpEngine | undefined;

  beforeAll(async () => {
    url = await sharedClickHouseUrl();
    admin = new ClickHouseHttpEngine({ url });
    await admin.exec(`CREATE DATABASE IF NOT EXISTS ${database}`);
  });

  afterAll(async () => {
    await admin?.exec(`DROP DATABASE IF EXISTS ${database}`);
    await admin?.close();
  });

  describeEngineContract('clickhouse http', async () => new ClickHouseHttpEngine({ url, database }));
});

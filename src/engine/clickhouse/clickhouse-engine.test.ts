import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeEngineContract } from '../testing/engine-contract.js';
import { ClickHouseHttpEngine } from './clickhouse-http-engine.js';

// No ClickHouse server runs on the development machines (chDB is the embedded engine), so the
// server adapter runs the contract only where CLICKHOUSE_URL points at one, e.g. in CI with a
// clickhouse-server container. Each run uses a fresh database and drops it afterwards.
const url = process.env.CLICKHOUSE_URL;

describe.skipIf(!url)('clickhouse server', () => {
  const database = `vigil_test_${randomUUID().replaceAll('-', '')}`;
  // Built in the hooks: the body of a skipped describe still runs to collect its tests.
  let admin: ClickHouseHttpEngine | undefined;

  beforeAll(async () => {
    admin = new ClickHouseHttpEngine({ url: url ?? '' });
    await admin.exec(`CREATE DATABASE IF NOT EXISTS ${database}`);
  });

  afterAll(async () => {
    await admin?.exec(`DROP DATABASE IF EXISTS ${database}`);
    await admin?.close();
  });

  describeEngineContract('clickhouse http', async () => new ClickHouseHttpEngine({ url: url ?? '', database }));
});

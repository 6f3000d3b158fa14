/**
 * The whole service listening on 127.0.0.1 (a port the OS picks), for tests that drive the
 * shipper protocols with real clients: the API harness plus a listening socket, a tenant with a
 * one-tenant key, and a way to count what an index holds.
 */
import { openApiHarness, type ApiHarness } from './api-harness.js';
import { cliActor } from '../../src/services/index.js';

export interface ShipperServer {
  readonly h: ApiHarness;
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** A key holding only `tenant`. */
  readonly key: string;
  readonly tenant: string;
  createIndex(name: string, tenant?: string): Promise<void>;
  /** Runs a blocking query for the tenant (over all time, or [from, to)); answers its rows' columns. */
  query(query: string, range?: { from: string; to: string }): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function openShipperServer(options: { env?: Record<string, string>; tenant?: string } = {}): Promise<ShipperServer> {
  const h = await openApiHarness({ ...(options.env ? { env: options.env } : {}) });
  const tenant = options.tenant ?? 'acme';
  const key = await h.keyFor(tenant);
  const address = await h.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    h,
    url: address,
    key,
    tenant,
    async createIndex(name, forTenant = tenant) {
      await h.runtime.services.tenants.ensure(forTenant);
      await h.runtime.services.indexes.create(forTenant, { name }, cliActor);
    },
    async query(query, range = { from: '1900-01-01T00:00:00Z', to: '2262-01-01T00:00:00Z' }) {
      const r = await h.call('POST', '/v1/blocking_query', key, { tenant_id: tenant, query, start_time: range.from, end_time: range.to, max_rows: 10_000 });
      if (r.status !== 200) throw new Error(`query ${query} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return (r.body.results.rows as { columns: Record<string, unknown> }[]).map((row) => row.columns);
    },
    close: () => h.close(),
  };
}

/** `Basic base64(user:password)` */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

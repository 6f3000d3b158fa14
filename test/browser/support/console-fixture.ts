/**
 * What the browser tests find on the server: a `web` index of HTTP events over the last three
 * hours (ingested through the API), a `bulk` index of a million events whose wildcard searches
 * take seconds (written straight into the engine, as the query API tests do), a webhook sink on a
 * stand-in receiver, an Active rule that has alerted (its alert delivered) and a Staging one.
 */
import type { Engine } from '../../../src/engine/index.js';

export interface ConsoleFixture {
  readonly webEvents: number;
  readonly alertingRuleId: string;
  readonly stagingRuleId: string;
  readonly alertId: string;
  readonly sinkId: string;
}

const users = ['alice', 'bob', 'carol', 'dave'] as const;
const paths = ['/login', '/api/orders', '/api/users', '/health'] as const;

/** HTTP events, one every 18 s back from `now`: statuses 200, 404 and (every 25th) 500. */
export function webEvents(now: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const status = i % 25 === 0 ? 500 : i % 7 === 0 ? 404 : 200;
    return JSON.stringify({
      '@timestamp': new Date(now - 30_000 - i * 18_000).toISOString(),
      status,
      path: paths[i % paths.length],
      user: users[i % users.length],
      duration_ms: 5 + ((i * 37) % 400),
      host: `web-${(i % 3) + 1}`,
      http: { method: i % 5 === 0 ? 'POST' : 'GET', agent: 'curl/8.5.0' },
      tags: i % 2 === 0 ? ['edge', 'eu'] : ['edge'],
      message: `${status === 500 ? 'upstream failed' : 'request served'} for ${users[i % users.length]}`,
    });
  });
}

async function api(url: string, key: string, method: string, body?: unknown, contentType = 'application/json'): Promise<any> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${new URL(url).pathname}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function seedConsoleFixture(options: { url: string; key: string; engine: Engine; webhookUrl: string }): Promise<ConsoleFixture> {
  const { url, key, engine } = options;
  const now = Date.now();
  const lines = webEvents(now, 600);
  const ingested = await api(`${url}/v1/ingest?tenant_id=default&index=web&create_index=true`, key, 'POST', `${lines.join('\n')}\n`, 'application/x-ndjson');
  if (ingested.ingested !== lines.length) throw new Error(`ingest: ${JSON.stringify(ingested)}`);

  // Two seed events through the API at the first and last time of the rows written below, so the
  // index's recorded time span (which bounds every search) covers them.
  const bulkStartMs = now - 3_600_000;
  const seeds = [bulkStartMs, bulkStartMs + 3_000_000].map((t) => JSON.stringify({ seed: true, timestamp: new Date(t).toISOString() }));
  const bulk = await api(`${url}/v1/ingest?tenant_id=default&index=bulk&create_index=true`, key, 'POST', `${seeds.join('\n')}\n`, 'application/x-ndjson');
  if (bulk.ingested !== seeds.length) throw new Error('bulk index');
  const bulkIndex = (await api(`${url}/v1/index?tenant_id=default`, key, 'GET')).data.indexes.find((i: { name: string }) => i.name === 'bulk');
  // The engine keys events by the tenant's id, a UUID for the bootstrap tenant named `default`.
  const me = await api(`${url}/v1/me`, key, 'GET');
  const tenantId = me.tenants.find((t: { name: string }) => t.name === 'default').id as string;
  const start = BigInt(bulkStartMs) * 1_000_000n;
  await engine.exec(
    `INSERT INTO logs (tenant, idx, ts, seq, source_type, ts_field, raw, search_text) ` +
      `SELECT '${tenantId}', '${bulkIndex.id}', fromUnixTimestamp64Nano(toInt64(${start} + number * 3000000)), number + 10, ` +
      `'custom:generic', '', '{}', concat('value ', toString(number), ' ', repeat('abcdefghij ', 60)) FROM numbers(1000000)`,
    // In blocks of 100,000 rows: one block of a million would hold every empty typed slot too (over 2 GiB).
    { settings: { min_insert_block_size_rows: 100_000, min_insert_block_size_bytes: 0 } },
  );

  const sink = await api(`${url}/v1/event_sink`, key, 'POST', {
    tenant_id: 'default',
    name: 'ops webhook',
    description: 'the on-call webhook',
    event_sink_args: { Webhook: { url: options.webhookUrl } },
  });
  const rule = (fields: Record<string, unknown>) =>
    api(`${url}/v1/detection_rule`, key, 'POST', { tenant_id: 'default', description: '', time_range_s: 3600, run_frequency_s: 60, event_sink_ids: [], ...fields });
  // A new Active rule evaluates its most recent complete window at once, which holds 500s.
  const alerting = await rule({
    name: 'Server errors',
    severity: 'High',
    enabled_state_override: 'Active',
    query_text: '@index=web status = 500 | groupbycount(path)',
    tags: ['http', 'availability'],
    event_sink_ids: [sink.event_sink.id],
  });
  const staging = await rule({ name: 'Admin logins', severity: 'Medium', enabled_state_override: 'Staging', query_text: '@index=web path = "/login" user = alice', tags: ['auth'] });

  const deadline = Date.now() + 60_000;
  for (;;) {
    const alerts = (await api(`${url}/v1/alert?tenant_id=default`, key, 'GET')).data.alerts as { id: string; status: string }[];
    const delivered = alerts.find((a) => a.status === 'delivered');
    if (delivered) {
      return { webEvents: lines.length, alertingRuleId: alerting.detection_rule.id, stagingRuleId: staging.detection_rule.id, alertId: delivered.id, sinkId: sink.event_sink.id };
    }
    if (Date.now() > deadline) throw new Error(`no delivered alert within 60 s: ${JSON.stringify(alerts)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

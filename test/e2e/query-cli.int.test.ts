/**
 * `vigil query --json` prints the rows the API returns, in the same JSON: in process (no server
 * holds the data dir) and through a running server's blocking_query.
 */
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/cli-context.js';
import { runCli } from '../../src/cli/program.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let h: ApiHarness;
let acme: string;
let url: string;
const range = { start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' };

beforeAll(async () => {
  h = await openApiHarness();
  acme = await h.keyFor('acme');
  await h.ingest('acme', 'web', [1, 2, 3].map((n) => JSON.stringify({ ts: `2026-11-20T10:00:0${n}Z`, n })));
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => h?.close());

/** Runs `vigil` with the harness's services in process, or (`server`) as if a server held the data dir. */
async function vigil(argv: string[], server: boolean): Promise<{ code: number; stdout: string }> {
  const stdout = new PassThrough();
  const busy = new Error('data dir busy');
  const ctx: CliContext = {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    interactive: false,
    loadConfig: () => ({ dataDir: '/nonexistent' }) as never,
    openServices: async () => (server ? Promise.reject(busy) : { services: h.runtime.services, close: async () => {} }),
    serve: async () => {},
    runningServer: () => ({ url, pid: process.pid }),
    isDataDirBusy: (error) => error === busy,
    nowMs: () => Date.parse(range.end_time),
  };
  const code = await runCli(argv, ctx, 'test');
  return { code, stdout: (stdout.read() as Buffer | null)?.toString() ?? '' };
}

describe('vigil query --json', () => {
  it('prints row_id as the API does: t a string, s an integer, in process and through the server', async () => {
    const api = await h.call('POST', '/v1/blocking_query', acme, { query: '*', ...range });
    const expected = api.body.results.rows.map((row: any) => ({ row_id: row.row_id, columns: row.columns }));
    expect(expected[0].row_id).toEqual({ t: expect.any(String), s: expect.any(Number) });
    for (const server of [false, true]) {
      const run = await vigil(['query', '*', '--json', '--tenant', 'acme', '--from', range.start_time, '--to', range.end_time, '--api-key', acme], server);
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(expected);
    }
  });

  it.each([
    ['a projection of events', '* | table(n)'],
    ['an aggregation', '* | stats count() as c by n'],
  ])('prints %s in the API shape, in process and through the server alike', async (_, query) => {
    const api = await h.call('POST', '/v1/blocking_query', acme, { query, ...range });
    expect(api.status).toBe(200);
    const expected = api.body.results.rows;
    expect(expected).toHaveLength(3);
    for (const row of expected) expect(row).toEqual({ row_id: { t: expect.any(String), s: expect.any(Number) }, columns: expect.any(Object) });
    const printed: unknown[][] = [];
    for (const server of [false, true]) {
      const run = await vigil(['query', query, '--json', '--tenant', 'acme', '--from', range.start_time, '--to', range.end_time, '--api-key', acme], server);
      expect(run.code).toBe(0);
      printed.push(run.stdout.trim().split('\n').map((line) => JSON.parse(line)));
    }
    const byRow = (rows: any[]) => [...rows].sort((a, b) => JSON.stringify(a.columns).localeCompare(JSON.stringify(b.columns)));
    expect(printed[1]).toEqual(printed[0]);
    expect(byRow(printed[0]!)).toEqual(byRow(expected));
  });
});

describe('vigil query --explain', () => {
  it('names the index that narrows each predicate: the word index, or a null check for a column read from the rest maps', async () => {
    // The first batch puts `host` in a slot; `user`, first seen in the second batch, is written
    // to the rest maps for that batch's rows (and promoted to a slot for later ones).
    await h.ingest('acme', 'audit', [JSON.stringify({ ts: '2026-11-20T11:00:00Z', host: 'web-1' })]);
    await h.ingest('acme', 'audit', [JSON.stringify({ ts: '2026-11-20T11:00:01Z', host: 'web-2', user: 'dave', size: 5 })]);
    const explain = async (query: string): Promise<string> => {
      const run = await vigil(['query', query, '--explain', '--tenant', 'acme', '--from', range.start_time, '--to', range.end_time], false);
      expect(run.code).toBe(0);
      return run.stdout;
    };
    const restMapRead = "no index (reads the column from the rest map of every row in range); where it holds a value,";
    const user = await explain('@index=audit user: dave');
    expect(user).toContain(`user: dave: ${restMapRead}`);
    expect(user).toMatch(/isNotNull\(coalesce\(s[0-9]+, rest_s\['user'\]\)\) AND coalesce\(match/);
    expect(user).not.toContain('has(field_paths');
    // In a slot in every map of the index from the first: read from the slot alone.
    const host = await explain('@index=audit host: web');
    expect(host).toContain('host: web: the word index search_words prefilters, then');
    expect(host).not.toContain('isNotNull(');
    // Comparisons hold on values only too.
    expect(await explain('@index=audit | where user == "dave"')).toContain(`user == "dave": ${restMapRead}`);
    expect(await explain('@index=audit size > 3')).toContain(`size > 3: ${restMapRead}`);
    const unequal = await explain('@index=audit | where user != "dave"');
    expect(unequal).toContain('user != "dave": no index (reads every row in range), then');
    expect(unequal).not.toContain('isNotNull(');
    // And the narrowed statements find the event.
    for (const query of ['user: dave', '| where user == "dave"', 'size > 3', '| where size == 5']) {
      const run = await vigil(['query', `@index=audit ${query}`, '--json', '--tenant', 'acme', '--from', range.start_time, '--to', range.end_time], false);
      expect(run.stdout.trim().split('\n').map((line) => JSON.parse(line).columns.host)).toEqual(['web-2']);
    }
    const others = await vigil(['query', '@index=audit | where user != "dave"', '--json', '--tenant', 'acme', '--from', range.start_time, '--to', range.end_time], false);
    expect(others.stdout.trim().split('\n').map((line) => JSON.parse(line).columns.host)).toEqual(['web-1']);
  });
});

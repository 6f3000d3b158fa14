/**
 * Rule and sink listings (interface 2.9, 4.2, 4.3) at scale: 1,000 rules walked page by page
 * while other writers create and delete rules between and during the fetches. Every rule that
 * existed throughout the walk appears exactly once; no rule appears twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let h: ApiHarness;
let acme: string;
// Listings are in creation order, then id: a clock that moves on every reading makes creation
// order the order of the requests, so the expected order is known.
let tick = Date.parse('2026-11-21T12:00:00Z');
const clock = { nowMs: () => tick++ };

const rule = (n: number) => ({
  tenant_id: 'acme',
  name: `rule ${n}`,
  description: '',
  time_range_s: 300,
  run_frequency_s: 60,
  enabled_state_override: 'Paused',
  severity: 'Low',
  query_text: `rule_number = ${n}`,
  event_sink_ids: [],
});

async function createRule(n: number): Promise<string> {
  const response = await h.call('POST', '/v1/detection_rule', acme, rule(n));
  expect(response.status).toBe(200);
  return response.body.detection_rule.id as string;
}

async function page(url: string): Promise<{ ids: string[]; next: string | null; items: Record<string, unknown>[] }> {
  const response = await h.call('GET', url, acme);
  expect(response.status).toBe(200);
  const items = (response.body.data.detection_rules ?? response.body.data.event_sinks) as Record<string, unknown>[];
  return { ids: items.map((i) => String(i.id)), next: response.body.pagination.next_page_token, items };
}

const initial: string[] = [];

beforeAll(async () => {
  h = await openApiHarness({ clock });
  acme = await h.keyFor('acme');
  for (let n = 0; n < 1000; n++) initial.push(await createRule(n));
}, 120_000);
afterAll(async () => h?.close());

describe('rule listing with 1,000 rules', () => {
  it('pages of 50 by default, in creation order, list items without event_sink_ids', async () => {
    const first = await page('/v1/detection_rule?tenant_id=acme');
    expect(first.ids).toEqual(initial.slice(0, 50));
    expect(first.next).toEqual(expect.any(String));
    for (const item of first.items) expect(item).not.toHaveProperty('event_sink_ids');
    const all = await page('/v1/detection_rule?tenant_id=acme&pagination[page_size]=1000');
    expect(all.ids).toEqual(initial);
    // 1,000 rows exactly fill the page, and the store knows no row follows: no empty extra page.
    expect(all.next).toBeNull();
    expect(await page('/v1/detection_rule?tenant_id=acme&pagination[page_token]=')).toMatchObject({ ids: initial.slice(0, 50) });
  });

  it('writers creating and deleting between and during page fetches never make the walk repeat or skip a rule that existed throughout', async () => {
    const present = new Set(initial);
    const deleted = new Set<string>();
    const created: string[] = [];
    let n = 10_000;
    let step = 0;
    // A writer deleting a rule (ahead of or behind the cursor) and creating one.
    const write = async (): Promise<void> => {
      const ids = [...present];
      const victim = ids[(step++ * 7919) % ids.length];
      if (victim !== undefined) {
        present.delete(victim);
        deleted.add(victim);
        expect((await h.call('DELETE', `/v1/detection_rule/${victim}`, acme)).status).toBe(200);
      }
      const id = await createRule(n++);
      present.add(id);
      created.push(id);
    };

    const served: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const url: string = `/v1/detection_rule?tenant_id=acme&pagination[page_size]=37${token === null ? '' : `&pagination[page_token]=${encodeURIComponent(token)}`}`;
      // Writers run while the page is fetched, and again between pages.
      const [result] = await Promise.all([page(url), write(), write()]);
      served.push(...result.ids);
      token = result.next;
      pages += 1;
      await write();
    } while (token !== null && pages < 500);

    expect(token).toBeNull();
    expect(new Set(served).size).toBe(served.length);
    const throughout = initial.filter((id) => !deleted.has(id));
    const servedSet = new Set(served);
    expect(throughout.filter((id) => !servedSet.has(id))).toEqual([]);
    // Everything served existed at some point, in creation order.
    const order = new Map([...initial, ...created].map((id, i) => [id, i]));
    expect(deleted.size).toBeGreaterThan(50);
    const positions = served.map((id) => order.get(id) ?? -1);
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it.each([
    ['0', /pagination\[page_size\] must be >= 1/],
    ['1001', /pagination\[page_size\] must be <= 1000/],
    ['2.5', /pagination\[page_size\] must be integer/],
    ['ten', /pagination\[page_size\] must be integer/],
  ])('refuses pagination[page_size]=%s with 400 naming the field', async (size, message) => {
    const response = await h.call('GET', `/v1/detection_rule?tenant_id=acme&pagination[page_size]=${size}`, acme);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('refuses a token it did not issue, or one of another listing, naming pagination[page_token]', async () => {
    const indexToken = Buffer.from(JSON.stringify({ v: 1, k: ['web', 'x'], c: 'AAAAAAAAAA' })).toString('base64url');
    for (const token of ['garbage!', indexToken, 'eyJ2IjoxfQ']) {
      const response = await h.call('GET', `/v1/detection_rule?tenant_id=acme&pagination[page_token]=${encodeURIComponent(token)}`, acme);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('pagination[page_token]: invalid page token');
    }
  });

  it('requires tenant_id from a key holding several tenants', async () => {
    const response = await h.call('GET', '/v1/detection_rule', await h.keyFor('acme', 'globex'));
    expect(response).toMatchObject({ status: 400, body: { error: expect.stringMatching(/tenant_id is required: this api key holds several tenants/) } });
  });
});

describe('sink listing', () => {
  it('pages of 50 by default, then the rest, and null at the end', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const response = await h.call('POST', '/v1/event_sink', acme, { tenant_id: 'acme', name: `sink ${i}`, description: '', event_sink_args: { Webhook: { url: `https://hooks.example.com/${i}` } } });
      ids.push(response.body.event_sink.id);
    }
    const served: string[] = [];
    const sizes: number[] = [];
    let token: string | null = null;
    do {
      const url: string = `/v1/event_sink?tenant_id=acme${token === null ? '' : `&pagination[page_token]=${encodeURIComponent(token)}`}`;
      const result = await page(url);
      served.push(...result.ids);
      sizes.push(result.ids.length);
      token = result.next;
    } while (token !== null);
    expect(sizes).toEqual([50, 50, 20]);
    expect(served).toEqual(ids);
    expect((await h.call('GET', '/v1/event_sink?tenant_id=acme&pagination[page_size]=1001', acme)).status).toBe(400);
  });
});

/**
 * The search page in a real browser against a real server: sign in, search ingested events,
 * the histogram and rows, an event expanded, a value clicked into the query, a 400's squiggle,
 * a long search cancelled in the engine, the URL reproducing a search, the keyboard and axe.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoSeriousViolations, openConsolePage, screenshot, signIn, type ConsoleSession } from './support/console-browser.js';

// Callbacks given to page.evaluate() run in the page: its globals, untyped here (this Node program has no DOM types).
declare const document: any, sessionStorage: any, localStorage: any;

/** Replaces the query text (typed as one insertion, so brackets are not auto-closed) and runs it. */
async function runQuery(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Query' });
  await editor.click();
  await page.keyboard.press('Control+A');
  if (text === '') await page.keyboard.press('Delete');
  else await page.keyboard.insertText(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

async function finished(page: Page, status = 'completed'): Promise<string> {
  const line = page.locator(`.run-status[data-status="${status}"]`);
  await line.waitFor({ timeout: 30_000 });
  return (await line.textContent()) ?? '';
}

async function api(path: string, init: RequestInit = {}): Promise<any> {
  const response = await fetch(`${inject('consoleUrl')}${path}`, { ...init, headers: { authorization: `Bearer ${inject('apiKey')}`, ...(init.headers ?? {}) } });
  return response.status === 204 ? null : response.json();
}

describe('the search page', () => {
  let session: ConsoleSession;
  let page: Page;

  beforeAll(async () => {
    session = await openConsolePage('/');
    page = session.page;
  });
  afterAll(async () => {
    expect(session.problems).toEqual([]);
    await session.close();
  });

  it('asks for a key, keeps it for the tab only, and never puts it in the URL', async () => {
    await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
    await expectNoSeriousViolations(page, 'sign-in page');
    await screenshot(page, 'sign-in');
    await page.getByLabel('API key').fill('vgl_not_a_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    await signIn(page);
    const storage = await page.evaluate(() => ({ session: sessionStorage.getItem('vigil.api_key'), local: localStorage.getItem('vigil.api_key') }));
    expect(storage).toEqual({ session: inject('apiKey'), local: null });
    expect(page.url()).not.toContain(inject('apiKey'));
  });

  it('searches an index: rows newest first, the count and the histogram', async () => {
    await page.getByRole('combobox', { name: 'Index' }).selectOption('web');
    await expect.poll(() => new URL(page.url()).searchParams.get('index')).toBe('web');
    const status = await finished(page);
    expect(status).toContain(`${inject('fixture').webEvents} rows`);
    const times = await page.locator('.event-list .grid-row .time').allTextContents();
    expect(times.length).toBeGreaterThan(10);
    expect([...times].sort().reverse()).toEqual(times);
    await page.locator('.histogram figcaption').filter({ hasText: `${inject('fixture').webEvents} events` }).waitFor();
    expect(await page.locator('.histogram canvas').count()).toBe(1);
    await expectNoSeriousViolations(page, 'search page with results');
    await screenshot(page, 'search');
  });

  it('opens an event as a tree and adds one of its values to the query', async () => {
    await page.locator('.event-list .grid-row').first().click();
    const detail = page.getByRole('complementary', { name: 'Event' });
    await detail.waitFor();
    expect(await detail.locator('li.leaf .key', { hasText: /^method$/ }).count()).toBe(1);
    const user = (await detail.locator('li.leaf').filter({ has: page.locator('.key', { hasText: /^user$/ }) }).locator('.value').textContent())!;
    await expectNoSeriousViolations(page, 'search page with an event open');
    await screenshot(page, 'event');
    await detail.getByRole('button', { name: `Filter for user = ${JSON.parse(user)}` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(`user = ${user}`);
    expect(await finished(page)).toContain(`${inject('fixture').webEvents / 4} rows`);
    expect(await page.getByRole('textbox', { name: 'Query' }).textContent()).toBe(`user = ${user}`);
  });

  it('lists the index\'s fields with type and share, and filters by a top value', async () => {
    const sidebar = page.getByRole('navigation', { name: 'Fields' });
    const status = sidebar.locator('.field-item').filter({ has: page.getByRole('button', { name: /^#\s*status$/ }) });
    await status.waitFor();
    expect(await status.locator('.share').textContent()).toBe('100%');
    expect(await sidebar.locator('.field-item').filter({ has: page.getByRole('button', { name: /tags\[1\]$/ }) }).locator('.share').textContent()).toBe('50%');
    await status.getByRole('button', { name: /status$/ }).click();
    const values = status.locator('.field-values li');
    await values.first().waitFor();
    // The query is user = <someone>: a quarter of the events, 1 in 25 of them a 500.
    expect(await values.allTextContents()).toEqual([expect.stringMatching(/^200\s*\d+/), expect.stringMatching(/^404\s*\d+/), expect.stringMatching(/^500\s*\d+/)]);
    await status.getByRole('button', { name: 'Filter out status = 200' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toMatch(/ not status = 200$/);
    // Polled: the status line shows the search before this one until this one starts.
    await expect.poll(() => finished(page)).not.toContain(`${inject('fixture').webEvents / 4} rows`);
    await screenshot(page, 'fields');
  });

  it('shows chosen columns, exports what it shows, and zooms by dragging across the histogram', async () => {
    await page.goto('/search?index=web&range=24h');
    await finished(page);
    await page.getByRole('navigation', { name: 'Fields' }).getByRole('button', { name: 'Show user as a column' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('cols')).toBe('user');
    expect(await page.locator('.event-list [role="columnheader"]').allTextContents()).toEqual(['Time (UTC)', 'user']);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const chunks: Buffer[] = [];
    for await (const chunk of await (await download).createReadStream()) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString().split('\r\n');
    expect(csv[0]).toBe('@svc.datetime,user');
    expect(csv).toHaveLength(inject('fixture').webEvents + 2); // header, rows, final line break
    const plot = (await page.locator('.histogram .u-over').boundingBox())!;
    await page.mouse.move(plot.x + plot.width * 0.3, plot.y + plot.height / 2);
    await page.mouse.down();
    await page.mouse.move(plot.x + plot.width * 0.6, plot.y + plot.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get('range')).toMatch(/^\d{4}-.*Z\.\.\d{4}-.*Z$/);
    // The chart spans the hours the index holds (the server narrows the range to its data): the
    // drag selects about a third of them, in whole buckets.
    const [from, to] = new URL(page.url()).searchParams.get('range')!.split('..').map((t) => Date.parse(t));
    expect(to! - from!).toBeGreaterThan(30 * 60_000);
    expect(to! - from!).toBeLessThan(2 * 3_600_000);
    await expect.poll(async () => Number(/([\d,]+) rows/.exec((await page.locator('.run-status[data-status="completed"]').textContent()) ?? '')?.[1]?.replace(/,/g, ''))).toBeLessThan(inject('fixture').webEvents);
  });

  it('says what the index holds when the range has no events, and searches all time from there', async () => {
    await page.goto('/search?index=web&range=2020-01-01T00:00:00Z..2020-01-02T00:00:00Z');
    const notice = page.getByRole('status').filter({ hasText: 'No events in this range' });
    await notice.waitFor();
    await expect.poll(() => notice.textContent()).toContain(`Index web holds ${inject('fixture').webEvents} events from`);
    await expectNoSeriousViolations(page, 'search page with an empty range');
    await notice.getByRole('button', { name: 'Search all time' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('range')).toBe('all');
    // The run starts once the index's span is known: until then the last run's line stays.
    await expect.poll(() => page.locator('.run-status[data-status="completed"]').textContent()).toContain(`${inject('fixture').webEvents} rows`);
  });

  it('draws an aggregation as a table and bars', async () => {
    await runQuery(page, 'status >= 400 | groupbycount(path)');
    await finished(page);
    await page.locator('.bar-chart').waitFor();
    expect(await page.locator('.result-table [role="columnheader"]').allTextContents()).toEqual(['path', '@q.count']);
    expect(await page.locator('.bar-chart li').count()).toBe(4);
    await screenshot(page, 'aggregation');
  });

  it('underlines the exact characters a 400 points at, with its message', async () => {
    await runQuery(page, 'status >= 500 | stats count( by path');
    const problems = page.locator('.query-problems');
    await problems.waitFor();
    const squiggle = page.locator('.cm-lintRange-error');
    await squiggle.first().waitFor();
    const underlined = (await squiggle.allTextContents()).join('');
    expect('status >= 500 | stats count( by path').toContain(underlined);
    expect(underlined.length).toBeGreaterThan(0);
    const answer = await api('/v1/start_query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: 'default', query: '@index=web (status >= 500 \n) | stats count( by path', start_time: '2020-01-01T00:00:00Z', end_time: '2030-01-01T00:00:00Z' }),
    });
    expect(await problems.textContent()).toContain(answer.diagnostics[0].message);
    await screenshot(page, 'query-error');
  });

  it('cancels a long search in the engine', async () => {
    const startOf = (text: string) => page.waitForResponse((r) => r.url().endsWith('/v1/start_query') && (r.request().postData() ?? '').includes(text));
    const rerun = startOf('count( by path'); // the query of the test before, run again over bulk
    await page.getByRole('combobox', { name: 'Index' }).selectOption('bulk');
    expect((await rerun).status()).toBe(400);
    await finished(page, 'failed');
    const started = startOf('*zzz*');
    await runQuery(page, "'*zzz*' or '*yyy*' or '*xxx*' or '*www*' | count");
    const { qr_id: qrId } = await (await started).json();
    const cancel = page.getByRole('button', { name: 'Cancel' });
    await cancel.waitFor();
    const cancelled = page.waitForResponse((r) => r.url().includes(`/v1/cancel_query/${qrId}`));
    await cancel.click();
    expect((await cancelled).status()).toBe(204);
    await finished(page, 'cancelled');
    const progress = await api(`/v1/query_progress/${qrId}`);
    expect(progress).toMatchObject({ is_completed: true, metadata: { cancelled: true } });
  });

  it('reproduces a search from its link in a new tab, after signing in there', async () => {
    const link = `/search?q=${encodeURIComponent('status = 404')}&range=24h&index=web`;
    const other = await openConsolePage(link);
    try {
      await signIn(other.page);
      expect(await finished(other.page)).toMatch(/\d+ rows/);
      expect(await other.page.getByRole('textbox', { name: 'Query' }).textContent()).toBe('status = 404');
      expect(await other.page.getByRole('combobox', { name: 'Index' }).inputValue()).toBe('web');
      expect(other.problems).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('is usable from the keyboard: query, run, results, open an event', async () => {
    await page.goto('/search?index=web&range=24h');
    await finished(page);
    await page.keyboard.press('Tab'); // skip link first
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const reached: string[] = [];
    for (let i = 0; i < 20 && !reached.includes('Query'); i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''));
    }
    expect(reached).toContain('Query');
    await page.keyboard.insertText('status = 500');
    await page.keyboard.press('Escape'); // closes completion, if open
    await page.keyboard.press('Enter');
    expect(await finished(page)).toContain(`${inject('fixture').webEvents / 25} rows`);
    for (let i = 0; i < 30; i++) {
      if (await page.evaluate(() => document.activeElement?.getAttribute('role') === 'grid')) break;
      await page.keyboard.press('Tab');
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Events, newest first');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-activedescendant'))).toBe('row-1');
    await page.keyboard.press('Enter');
    await page.getByRole('complementary', { name: 'Event' }).waitFor();
  });
});

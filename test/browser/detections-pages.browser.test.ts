/**
 * The detections side of the console in a real browser: the rules list, a rule's file validated
 * and its tests run in place, its state changed, its preview over history; an alert's attempts
 * and resend; sinks (create, test alert); indexes with stats and retention; keys. Every page
 * passes axe-core without a serious violation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations, openConsolePage, screenshot, signIn, type ConsoleSession } from './support/console-browser.js';

// Callbacks given to page.evaluate() run in the page: its globals, untyped here (this Node program has no DOM types).
declare const document: any;

const ruleTests = `
tests:
  - name: fires on a server error
    now_timestamp: "2026-01-01T00:05:00Z"
    dataset_inline: |
      {"@svc": {"datetime": "2026-01-01T00:04:00Z"}, "status": 500, "path": "/login"}
    expected_detection_result: true
  - name: quiet on success
    now_timestamp: "2026-01-01T00:05:00Z"
    dataset_inline: |
      {"@svc": {"datetime": "2026-01-01T00:04:00Z"}, "status": 200, "path": "/login"}
    expected_detection_result: false
`;

async function api(path: string): Promise<any> {
  const response = await fetch(`${inject('consoleUrl')}${path}`, { headers: { authorization: `Bearer ${inject('apiKey')}` } });
  return response.json();
}

/** Replaces the rule file in the editor. */
async function setRuleFile(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Rule file' }).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

describe('the detections pages', () => {
  let session: ConsoleSession;
  let page: Page;

  beforeAll(async () => {
    session = await openConsolePage('/rules');
    page = session.page;
    await signIn(page);
  });
  afterAll(async () => {
    expect(session.problems).toEqual([]);
    await session.close();
  });

  it('lists rules with state, severity and tags, filtered by a search', async () => {
    const rows = page.locator('table.data tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await page.getByRole('row').filter({ hasText: 'Server errors' }).textContent()).toMatch(/Active.*High.*http.*availability/);
    await expectNoSeriousViolations(page, 'rules page');
    await screenshot(page, 'rules');
    await page.getByLabel('Search rules').fill('admin');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Admin logins');
  });

  it('checks a rule file in place and points at the line of a problem', async () => {
    await page.getByRole('link', { name: 'Admin logins' }).click();
    await page.getByRole('heading', { name: 'Admin logins' }).waitFor();
    const file = page.getByRole('textbox', { name: 'Rule file' });
    expect(await file.textContent()).toContain('query_text: \'@index=web path = "/login" user = alice\'');
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('status').filter({ hasText: /^Valid/ }).waitFor();
    await expectNoSeriousViolations(page, 'rule page');
    await setRuleFile(page, (await readRuleFile(page)).replace('time_range_s: 3600', 'time_range_s: 90'));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('status').filter({ hasText: /^Invalid/ }).waitFor();
    const problem = page.locator('.diagnostics li').first();
    const line = (await readRuleFile(page)).split('\n').findIndex((l) => l.startsWith('time_range_s')) + 1;
    expect(await problem.textContent()).toMatch(new RegExp(`^${line}:\\d+ .*time_range_s`));
    expect(await page.locator('.yaml-editor .cm-lintRange-error').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Revert to the stored rule' }).click();
  });

  it('changes a rule\'s state from its page', async () => {
    await page.getByRole('radio', { name: /^Paused/ }).check();
    await expect.poll(async () => (await api(`/v1/detection_rule/${inject('fixture').stagingRuleId}`)).detection_rule.enabled_state_override).toBe('Paused');
    await page.getByRole('radio', { name: /^Staging/ }).check();
    await expect.poll(async () => (await api(`/v1/detection_rule/${inject('fixture').stagingRuleId}`)).detection_rule.enabled_state_override).toBe('Staging');
  });

  it('runs the tests written in the editor on the server', async () => {
    await page.goto(`/rules/${inject('fixture').alertingRuleId}`);
    await page.getByRole('heading', { name: 'Server errors' }).waitFor();
    await setRuleFile(page, `${await readRuleFile(page)}${ruleTests}`);
    await page.getByRole('button', { name: 'Run tests' }).click();
    await page.getByRole('status').filter({ hasText: 'All tests passed' }).waitFor({ timeout: 30_000 });
    const results = page.locator('.panel', { has: page.getByRole('heading', { name: 'Tests' }) }).locator('tbody tr');
    expect(await results.allTextContents()).toEqual([expect.stringMatching(/^fires on a server error\s*Passed/), expect.stringMatching(/^quiet on success\s*Passed/)]);
    await screenshot(page, 'rule');
  });

  it('previews a rule over the last 24 hours: the windows that would have alerted, with rows', async () => {
    await page.goto(`/rules/${inject('fixture').stagingRuleId}`);
    await page.getByRole('heading', { name: 'Admin logins' }).waitFor();
    await page.getByLabel('Range').selectOption({ label: 'Last 24 hours' });
    const answered = page.waitForResponse((r) => r.url().endsWith('/v1/detection_rule_preview'));
    await page.getByRole('button', { name: 'Preview' }).click();
    expect((await answered).status()).toBe(200);
    const summary = page.locator('.preview-panel [role="status"]');
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(/[1-9][\d,]* of [\d,]+ windows would have alerted/);
    const windows = page.locator('.preview-windows li');
    expect(await windows.count()).toBeGreaterThan(0);
    await windows.first().locator('summary').click();
    expect(await windows.first().locator('pre').textContent()).toContain('"user":"alice"');
    await screenshot(page, 'rule-preview');
  });

  it('shows an alert\'s delivery attempts and resends it', async () => {
    await page.getByRole('link', { name: 'Alerts', exact: true }).click();
    await page.locator('table.data tbody tr').first().waitFor();
    await expectNoSeriousViolations(page, 'alerts page');
    await screenshot(page, 'alerts');
    await page.goto(`/alerts/${inject('fixture').alertId}`);
    const attempts = page.locator('.panel tbody tr');
    await attempts.first().waitFor();
    expect(await attempts.count()).toBe(1);
    expect(await attempts.first().textContent()).toMatch(/delivered\s*200/);
    await expectNoSeriousViolations(page, 'alert page');
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByRole('status').filter({ hasText: 'Queued again' }).waitFor();
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return attempts.count();
      }, { timeout: 30_000 })
      .toBe(2);
    await screenshot(page, 'alert');
  });

  it('creates a sink and sends it a test alert', async () => {
    await page.getByRole('link', { name: 'Sinks' }).click();
    await page.getByRole('button', { name: 'New sink' }).click();
    const form = page.getByRole('form', { name: 'New sink' });
    await form.getByLabel('Name').fill('second hook');
    await form.getByLabel('URL').fill(`${inject('consoleUrl')}/healthz`);
    await form.getByRole('button', { name: 'Create sink' }).click();
    const row = page.getByRole('row').filter({ hasText: 'second hook' });
    await row.waitFor();
    await expectNoSeriousViolations(page, 'sinks page');
    await page.getByRole('button', { name: 'Send a test alert to ops webhook' }).click();
    await page.getByRole('row').filter({ hasText: 'ops webhook' }).getByText(/Delivered · HTTP 200/).waitFor();
    await screenshot(page, 'sinks');
  });

  it('shows each index with its stats and changes its retention', async () => {
    await page.getByRole('link', { name: 'Indexes' }).click();
    const web = page.getByRole('row').filter({ hasText: /^web/ });
    await web.getByRole('cell', { name: String(inject('fixture').webEvents), exact: true }).waitFor();
    await page.getByLabel('Retention of web in days (empty: forever)').fill('90');
    await web.getByRole('button', { name: 'Save' }).click();
    await web.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await api('/v1/index?tenant_id=default')).data.indexes.find((i: { name: string }) => i.name === 'web').retention_days).toBe(90);
    await expectNoSeriousViolations(page, 'indexes page');
    await screenshot(page, 'indexes');
  });

  it('creates a key (shown once) and revokes it, for an admin', async () => {
    await page.getByRole('link', { name: 'Keys' }).click();
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name').fill('ci reader');
    await form.getByLabel('Tenants (comma-separated)').fill('default');
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('.secret').textContent())!;
    expect(secret).toMatch(/^vgl_/);
    expect((await fetch(`${inject('consoleUrl')}/v1/index?tenant_id=default`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    await expectNoSeriousViolations(page, 'keys page');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke ci reader' }).click();
    await page.getByRole('row').filter({ hasText: 'ci reader' }).getByText(/revoked/).waitFor();
    expect((await fetch(`${inject('consoleUrl')}/v1/index?tenant_id=default`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
  });
});

async function readRuleFile(page: Page): Promise<string> {
  // CodeMirror renders lines as elements: read the document from the editor's state through its DOM lines.
  return page.evaluate(() => {
    const lines = document.querySelector('.yaml-editor')!.shadowRoot!.querySelectorAll('.cm-line');
    return [...lines].map((l) => l.textContent ?? '').join('\n');
  });
}

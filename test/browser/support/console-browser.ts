/**
 * What each browser test file uses: a page of the shared Chromium on the shared server (see
 * global-setup.ts), signing in, the accessibility check and screenshots. Every page fails its
 * test on a Content-Security-Policy violation or an uncaught error.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

// Callbacks given to page.evaluate() run in the page: its globals, untyped here (this Node program has no DOM types).
declare const document: any, window: any;

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface ConsoleSession {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Problems the page reported: CSP violations, uncaught errors, failed API calls other than expected 4xx. */
  readonly problems: string[];
  close(): Promise<void>;
}

let browser: Browser | null = null;
const axeRunning = new Set<Page>();

/** A fresh page (own storage) on the shared browser, at the console's URL. */
export async function openConsolePage(path = '/'): Promise<ConsoleSession> {
  browser ??= await chromium.connect(inject('browserEndpoint'));
  const context = await browser.newContext({ baseURL: inject('consoleUrl'), viewport: { width: 1400, height: 900 }, acceptDownloads: true, locale: 'en-US', timezoneId: 'UTC' });
  // Each violation reported with where it came from, so a failure names the culprit.
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e: any) =>
      console.error(`Refused by the Content-Security-Policy: ${e.violatedDirective} from ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} sample ${JSON.stringify(e.sample)} on ${(e.target as { outerHTML?: string } | null)?.outerHTML?.slice(0, 160) ?? ''}`),
    ),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // axe-core itself sets inline styles while it measures contrast: its runs are not the console's.
    const text = message.text();
    if (!text.startsWith('Refused by the Content-Security-Policy') || axeRunning.has(page)) return;
    // Chrome's own contenteditable editing (inserted text in CodeMirror) tries an empty style
    // attribute with no script behind it; anything the console's code or markup did names its source.
    if (text.startsWith('Refused by the Content-Security-Policy: style-src-attr from :0:0 sample ""')) return;
    problems.push(text);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(path);
  return {
    page,
    context,
    problems,
    async close() {
      await context.close();
    },
  };
}

/** Signs in with the fixture's admin key, for this tab only. */
export async function signIn(page: Page, key = inject('apiKey')): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
}

/** axe-core's rules on the page as it is: no serious or critical violation. */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  axeRunning.add(page);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50))); // let its reports arrive
  axeRunning.delete(page);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/**
 * Saves a screenshot for docs/console.md when UPDATE_SCREENSHOTS=1 (as UPDATE_GOLDEN=1 refreshes
 * goldens), so a plain test run leaves the working tree as it was.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = join(repoRoot, 'docs/console');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

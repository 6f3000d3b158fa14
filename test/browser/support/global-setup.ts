/**
 * One server and one browser for every browser test file (vitest globalSetup of the `browser`
 * project, run only when a browser test is selected): the console built from the current
 * sources, `vigil serve` in this process over a temporary data dir with the console fixture,
 * and Chromium from the @sparticuz/chromium package, which each test file connects to.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../../src/config/index.js';
import type { Engine } from '../../../src/engine/index.js';
import { startServer } from '../../../src/server.js';
import { startWebhookReceiver } from '../../../src/sinks/testing/stand-in-receiver.js';
import { chromiumExecutable, chromiumFlags } from './chromium-binary.js';
import { buildConsoleIfStale } from './console-build.js';
import { seedConsoleFixture, type ConsoleFixture } from './console-fixture.js';

declare module 'vitest' {
  export interface ProvidedContext {
    consoleUrl: string;
    apiKey: string;
    browserEndpoint: string;
    fixture: ConsoleFixture;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  buildConsoleIfStale();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-console-'));
  const receiver = await startWebhookReceiver();
  const config = loadConfig(
    { dataDir, host: '127.0.0.1', port: '0', logLevel: 'warn' },
    { VIGIL_ALLOW_PRIVATE_DESTINATIONS: 'true', VIGIL_DETECTION_SETTLE_DELAY_S: '0' },
  );
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const server = await startServer(config, silent);
  const [browser] = await Promise.all([
    chromiumExecutable().then((executablePath) => chromium.launchServer({ executablePath, args: [...chromiumFlags], headless: true })),
    (async () => {
      const key = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
      const fixture = await seedConsoleFixture({ url: server.url, key, engine: server.runtime.engine as Engine, webhookUrl: `${receiver.url}/hook` });
      project.provide('apiKey', key);
      project.provide('fixture', fixture);
    })(),
  ]);
  project.provide('consoleUrl', server.url);
  project.provide('browserEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.close();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/**
 * `vigil … | head`: when the reader of standard output goes away, vigil stops printing quietly
 * (no EPIPE stack trace), still finishes its work and exits with the command's own status.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../support/vigil-process.js';

let dir: string;
let dataDir: string;
let events: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-closed-output-'));
  dataDir = join(dir, 'data');
  events = join(dir, 'events.ndjson');
  const now = Date.now();
  const lines = Array.from({ length: 2000 }, (_, n) => JSON.stringify({ ts: new Date(now - 60_000 - n).toISOString(), n, msg: `event number ${n}` }));
  writeFileSync(events, `${lines.join('\n')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a closed standard output', () => {
  it('ends ingest quietly, and the events are still all ingested', async () => {
    const run = await runVigil(['ingest', events, '--tenant', 'default', '--index', 'web', '--create-index'], { dataDir, closedStdout: true });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const counted = await runVigil(['query', '* | stats count() as c', '--last', '72h', '--json'], { dataDir });
    expect(counted.code).toBe(0);
    expect(JSON.parse(counted.stdout.trim()).columns.c).toBe(2000);
  });

  it.each([
    ['index list', ['index', 'list', '--tenant', 'default']],
    ['query --json', ['query', '*', '--last', '72h', '--json']],
    ['keys list', ['keys', 'list']],
  ])('ends %s quietly with status 0', async (_, argv) => {
    const run = await runVigil(argv, { dataDir, closedStdout: true });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { ValidationError } from '../core/index.js';
import { loadConfig } from '../config/index.js';
import type { CliContext } from './cli-context.js';
import { runCli } from './program.js';

// Exit statuses the README promises: 0 success, 1 failure, 2 invalid usage.
function context(openServices: CliContext['openServices'] = async () => Promise.reject(new Error('no services in this test'))) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = (s: PassThrough) => () => (s.read() as Buffer | null)?.toString() ?? '';
  const ctx: CliContext = {
    stdout,
    stderr,
    stdin: new PassThrough(),
    interactive: false,
    loadConfig: () => ({}) as never,
    openServices,
    serve: async () => {},
    runningServer: () => null,
    isDataDirBusy: () => false,
    nowMs: () => 0,
  };
  return { ctx, out: text(stdout), err: text(stderr) };
}

describe('vigil exit statuses', () => {
  it('prints the version and exits 0', async () => {
    const { ctx, out } = context();
    expect(await runCli(['--version'], ctx, '1.2.3')).toBe(0);
    expect(out()).toContain('1.2.3');
  });

  it('exits 2 on a missing required option, an unknown command or missing files', async () => {
    for (const argv of [['index', 'list'], ['frobnicate'], ['ingest', '--tenant', 't', '--index', 'i']]) {
      const { ctx, err } = context();
      expect(await runCli(argv, ctx, '0')).toBe(2);
      expect(err()).not.toBe('');
    }
  });

  it('exits 2 with the field named when the input is invalid, and 1 when something fails', async () => {
    const invalid = context(async () => Promise.reject(new ValidationError('retention_days must be a whole number', { field: 'retention_days' })));
    expect(await runCli(['index', 'create', 'web', '--tenant', 't'], invalid.ctx, '0')).toBe(2);
    expect(invalid.err()).toBe('vigil: retention_days must be a whole number (retention_days)\n');
    const broken = context();
    expect(await runCli(['keys', 'list'], broken.ctx, '0')).toBe(1);
    expect(broken.err()).toContain('no services in this test');
  });

  it('refuses serve --port that is not a whole number before starting anything', async () => {
    let served = false;
    const { ctx, err } = context();
    const real = { ...ctx, loadConfig: (overrides: Parameters<CliContext['loadConfig']>[0]) => loadConfig(overrides, {}, tmpdir()), serve: async () => void (served = true) };
    for (const port of ['abc', '0x10', '1e3', '']) {
      expect(await runCli(['serve', '--port', port], real, '0')).toBe(1);
      expect(err()).toBe(`vigil: invalid configuration: --port: --port must be a whole number, got ${JSON.stringify(port)}\n`);
    }
    expect(served).toBe(false);
  });

  it('reports an unknown option before a missing required one', async () => {
    for (const argv of [
      ['ingest', '--bogus', 'x'],
      ['index', 'list', '--bogus'],
      ['rules', 'get', 'r1', '--bogus'],
    ]) {
      const { ctx, err } = context();
      expect(await runCli(argv, ctx, '0')).toBe(2);
      expect(err()).toBe("error: unknown option '--bogus'\n");
    }
    const { ctx, err } = context();
    expect(await runCli(['index', 'list'], ctx, '0')).toBe(2);
    expect(err()).toBe("error: required option '--tenant <tenant>' not specified\n");
  });
});

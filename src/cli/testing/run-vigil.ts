import { PassThrough } from 'node:stream';
import type { CliContext } from '../cli-context.js';
import { runCli } from '../program.js';

/** What a command printed and its exit status. */
export interface VigilRun {
  readonly status: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs `vigil <argv>` in process for tests: output captured, no config file or environment read
 * (`loadConfig` answers the defaults that matter to commands that need no services), and the
 * rest of the context from `overrides`.
 */
export async function runVigil(argv: readonly string[], overrides: Partial<CliContext> = {}, stdin = ''): Promise<VigilRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const input = new PassThrough();
  input.end(stdin);
  const ctx: CliContext = {
    stdout,
    stderr,
    stdin: input,
    interactive: false,
    loadConfig: () => ({ cliApiUrl: null, cliApiKey: null, dataDir: '/nonexistent' }) as never,
    openServices: async () => Promise.reject(new Error('this test opens no services')),
    serve: async () => {},
    runningServer: () => null,
    isDataDirBusy: () => false,
    nowMs: () => 0,
    ...overrides,
  };
  const status = await runCli(argv, ctx, '0');
  const text = (s: PassThrough) => (s.read() as Buffer | null)?.toString() ?? '';
  return { status, out: text(stdout), err: text(stderr) };
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliContext, GlobalOptions } from '../cli-context.js';
import { generateDemoEvents } from '../demo-events.js';
import { runIngestCommand } from './ingest-command.js';

/** `vigil demo`: loads generated sample logs into index `demo` of tenant `default`. */
export async function runDemoCommand(ctx: CliContext, options: GlobalOptions & { apiKey?: string; events?: string }): Promise<number> {
  const count = options.events ? Number(options.events) : 3000;
  const dir = mkdtempSync(join(tmpdir(), 'vigil-demo-'));
  const file = join(dir, 'demo-events.ndjson');
  try {
    writeFileSync(file, `${generateDemoEvents(ctx.nowMs(), count).join('\n')}\n`);
    const status = await runIngestCommand(ctx, [file], { ...options, tenant: 'default', index: 'demo', createIndex: true });
    ctx.stdout.write(
      [
        '',
        'Demo data is in index "demo" of tenant "default": web access logs, sshd logins and cloud audit events',
        'from the last 24 hours, with a password spray from 203.0.113.7 that ends in a login and a new access key.',
        'List your indexes with: vigil index list --tenant default',
        '',
      ].join('\n'),
    );
    return status;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

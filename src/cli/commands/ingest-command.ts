import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { ValidationError } from '../../core/index.js';
import { cliActor } from '../../admin/index.js';
import type { LineError } from '../../ingest/index.js';
import { overridesOf, type CliContext, type GlobalOptions } from '../cli-context.js';
import { formatBytes, formatCount, printJson } from '../output.js';
import { ProgressBar } from '../progress-bar.js';
import { serverApiKey } from '../server-api-key.js';
import { resolveTenantOption } from '../with-services.js';

export interface IngestCommandOptions extends GlobalOptions {
  readonly tenant: string;
  readonly index: string;
  readonly createIndex?: boolean;
  readonly sourceType?: string;
  readonly timestampField?: string;
  readonly apiKey?: string;
  readonly json?: boolean;
  readonly quiet?: boolean;
}

interface FileResult {
  readonly file: string;
  readonly ingested: number;
  readonly rejected: number;
  /** Decoded input bytes, the same in process and through a server (docs/ingest.md). */
  readonly bytes: number;
  /** The reader used (`ndjson`, `cloudtrail`, …) and whether the input was gzip; null when a server did not say. */
  readonly format: string | null;
  readonly gzip: boolean | null;
  readonly errors: readonly LineError[];
}

type IngestOne = (file: string, progress: ProgressBar) => Promise<FileResult>;

/** Exit status when every file was read but some lines were rejected. */
export const exitSomeRejected = 3;

/**
 * `vigil ingest FILE… | -`: in process when the engine is free, otherwise through the running
 * server's HTTP API. Returns the exit status.
 */
export async function runIngestCommand(ctx: CliContext, files: readonly string[], options: IngestCommandOptions): Promise<number> {
  if (files.length === 0) throw new ValidationError('name at least one FILE, or - for standard input', { field: 'FILE' });
  const config = ctx.loadConfig(overridesOf(options));
  const started = ctx.nowMs();
  const results: FileResult[] = [];
  const run = async (ingestOne: IngestOne): Promise<void> => {
    for (const file of files) {
      const progress = new ProgressBar(ctx.stderr, ctx.interactive && !options.quiet && !options.json, ctx.nowMs(), () => ctx.nowMs());
      try {
        results.push(await ingestOne(file, progress));
      } finally {
        progress.finish();
      }
    }
  };

  let opened: Awaited<ReturnType<CliContext['openServices']>> | null = null;
  try {
    opened = await ctx.openServices(config, true, { createDataDir: true });
  } catch (error) {
    if (!ctx.isDataDirBusy(error)) throw error;
  }
  if (opened) {
    const ingest = opened.services.ingest!;
    try {
      await resolveTenantOption(opened.services, options);
      await run(async (file, progress) => {
        const total = file === '-' ? null : statSync(file).size;
        const { summary } = await ingest.ingest(
          {
            tenantId: options.tenant,
            index: options.index,
            createIndex: options.createIndex ?? false,
            ...(options.sourceType ? { sourceType: options.sourceType } : {}),
            ...(options.timestampField ? { timestampField: options.timestampField } : {}),
            onProgress: (p) => progress.update(p.bytesRead, total, p.ingested, p.rejected),
          },
          openInput(ctx, file),
          cliActor,
        );
        return { file, ingested: summary.ingested, rejected: summary.rejected, bytes: summary.bytes, format: summary.format, gzip: summary.gzip, errors: summary.errors };
      });
      // Flush this command's audit entries into _audit now: no server is running to do it.
      await opened.services.maintenance?.shipAudit();
    } finally {
      await opened.close();
    }
  } else {
    const server = ctx.runningServer(config.dataDir);
    if (!server) throw new Error('the data dir is locked by another vigil process that is not serving HTTP; wait for it to finish');
    const apiKey = serverApiKey(config, options.apiKey);
    await run((file, progress) => ingestOverHttp(ctx, server.url, apiKey, file, options, progress));
  }
  report(ctx, results, options, (ctx.nowMs() - started) / 1000);
  return results.some((r) => r.rejected > 0) ? exitSomeRejected : 0;
}

function openInput(ctx: CliContext, file: string): AsyncIterable<Buffer> {
  return (file === '-' ? ctx.stdin : createReadStream(file, { highWaterMark: 1 << 20 })) as AsyncIterable<Buffer>;
}

async function ingestOverHttp(ctx: CliContext, url: string, apiKey: string, file: string, options: IngestCommandOptions, progress: ProgressBar): Promise<FileResult> {
  const total = file === '-' ? null : statSync(file).size;
  let sent = 0;
  const counted = Readable.from(
    (async function* () {
      for await (const chunk of openInput(ctx, file)) {
        sent += chunk.length;
        progress.update(sent, total, 0, 0);
        yield chunk;
      }
    })(),
  );
  const params = new URLSearchParams({ tenant_id: options.tenant, index: options.index, format: 'auto' });
  if (options.createIndex) params.set('create_index', 'true');
  if (options.sourceType) params.set('source_type', options.sourceType);
  if (options.timestampField) params.set('timestamp_field', options.timestampField);
  const response = await fetch(`${url}/v1/ingest?${params}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/x-ndjson' },
    body: Readable.toWeb(counted) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const body = (await response.json().catch(() => ({}))) as { ingested?: number; rejected?: number; errors?: LineError[]; error?: string; bytes?: number; format?: string; gzip?: boolean };
  if (!response.ok) throw new Error(`server at ${url} refused ${file}: ${body.error ?? response.statusText}`);
  return {
    file,
    ingested: body.ingested ?? 0,
    rejected: body.rejected ?? 0,
    bytes: body.bytes ?? sent, // a server older than the field counted what was sent
    format: body.format ?? null,
    gzip: body.gzip ?? null,
    errors: body.errors ?? [],
  };
}

function report(ctx: CliContext, results: readonly FileResult[], options: IngestCommandOptions, seconds: number): void {
  const ingested = results.reduce((n, r) => n + r.ingested, 0);
  const rejected = results.reduce((n, r) => n + r.rejected, 0);
  const bytes = results.reduce((n, r) => n + r.bytes, 0);
  if (options.json) {
    printJson(ctx.stdout, { ingested, rejected, bytes, seconds, files: results });
    return;
  }
  for (const r of results) {
    const read = r.format === null ? '' : `, read as ${r.gzip ? `gzip of ${r.format}` : r.format}`;
    ctx.stdout.write(`${r.file}: ${formatCount(r.ingested)} ingested, ${formatCount(r.rejected)} rejected (${formatBytes(r.bytes)}${read})\n`);
    for (const e of r.errors.slice(0, 10)) ctx.stderr.write(`  ${r.file}:${e.line}: ${e.error}\n`);
    if (r.rejected > 10) ctx.stderr.write(`  … ${formatCount(r.rejected - Math.min(r.errors.length, 10))} more rejected lines\n`);
  }
  ctx.stdout.write(
    `total: ${formatCount(ingested)} events into ${options.index} in ${seconds.toFixed(1)} s (${formatCount(ingested / Math.max(seconds, 0.001))} events/s, ${formatBytes(bytes / Math.max(seconds, 0.001))}/s)\n`,
  );
}

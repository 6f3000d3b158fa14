import { createReadStream, statSync } from 'node:fs';
import { ConflictError, IngestError, ValidationError, messageOf } from '../../core/index.js';
import { cliActor, type IngestService } from '../../services/index.js';
import type { LineError } from '../../ingest/index.js';
import { overridesOf, type CliContext, type GlobalOptions } from '../cli-context.js';
import { cliChunkBytes, fileChunks, type FileChunk } from '../file-chunks.js';
import { ingestPieces, type IngestPiece, type PieceResult, type PiecesTally } from '../ingest-pieces.js';
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
  /** Write pieces again that an earlier run already ingested (no ingest ids are sent). */
  readonly reingest?: boolean;
  readonly apiKey?: string;
  readonly json?: boolean;
  readonly quiet?: boolean;
}

interface FileResult extends PiecesTally {
  readonly file: string;
  /** Whether the input was gzip. */
  readonly gzip: boolean;
}

/** Exit status when every file was read but some lines were rejected. */
export const exitSomeRejected = 3;

/**
 * `vigil ingest FILE… | -`: in process when the engine is free, otherwise through the running
 * server's HTTP API. Each file goes in pieces of whole lines (bounded, so any size works), each
 * with an ingest id, so running the command again after a crash or a kill skips the pieces
 * already ingested and writes none twice (docs/ingest.md, "Ingest ids"). Returns the exit status.
 */
export async function runIngestCommand(ctx: CliContext, files: readonly string[], options: IngestCommandOptions): Promise<number> {
  if (files.length === 0) throw new ValidationError('name at least one FILE, or - for standard input', { field: 'FILE' });
  const config = ctx.loadConfig(overridesOf(options));
  const chunkBytes = Math.min(cliChunkBytes, config.http.maxIngestBytes);
  const started = ctx.nowMs();
  const results: FileResult[] = [];
  const run = async (piece: IngestPiece): Promise<void> => {
    for (const file of files) {
      const progress = new ProgressBar(ctx.stderr, ctx.interactive && !options.quiet && !options.json, ctx.nowMs(), () => ctx.nowMs());
      try {
        results.push(await ingestFile(ctx, file, chunkBytes, piece, progress));
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
      await run((chunk, onEvents) => ingestInProcess(ingest, chunk, options, onEvents));
    } finally {
      // Flush this command's audit entries into _audit now (also after a failure: what was
      // written is recorded): no server is running to do it.
      await opened.services.maintenance?.shipAudit().catch(() => {});
      await opened.close();
    }
  } else {
    const server = ctx.runningServer(config.dataDir);
    if (!server) throw new ConflictError('the data dir is locked by another vigil process that is not serving HTTP; wait for it to finish');
    const apiKey = serverApiKey(config, options.apiKey);
    await run((chunk) => ingestOverHttp(server.url, apiKey, chunk, options));
  }
  report(ctx, results, options, (ctx.nowMs() - started) / 1000);
  return results.some((r) => r.rejected > 0) ? exitSomeRejected : 0;
}

async function ingestFile(ctx: CliContext, file: string, chunkBytes: number, piece: IngestPiece, progress: ProgressBar): Promise<FileResult> {
  const total = file === '-' ? null : statSync(file).size;
  let gzip = false;
  const input = (file === '-' ? ctx.stdin : createReadStream(file, { highWaterMark: 1 << 20 })) as AsyncIterable<Buffer>;
  const chunks = fileChunks(input, chunkBytes, (isGzip) => (gzip = isGzip));
  const tally = await ingestPieces(file, chunks, piece, (chunk, events, rejected, force) => progress.update(chunk.inputBytesRead, total, events, rejected, force));
  return { file, ...tally, gzip };
}

async function ingestInProcess(ingest: IngestService, chunk: FileChunk, options: IngestCommandOptions, onEvents: (ingested: number) => void): Promise<PieceResult> {
  const { summary, duplicate } = await ingest.ingest(
    {
      tenantId: options.tenant,
      index: options.index,
      createIndex: options.createIndex ?? false,
      format: chunk.format,
      ...(options.sourceType ? { sourceType: options.sourceType } : {}),
      ...(options.timestampField ? { timestampField: options.timestampField } : {}),
      ...(options.reingest ? {} : { ingestId: chunk.ingestId }),
      onProgress: (p) => onEvents(p.ingested),
    },
    oneBuffer(chunk.bytes),
    cliActor,
  );
  return { ...summary, duplicate };
}

async function* oneBuffer(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

async function ingestOverHttp(url: string, apiKey: string, chunk: FileChunk, options: IngestCommandOptions): Promise<PieceResult> {
  const params = new URLSearchParams({ tenant_id: options.tenant, index: options.index, format: chunk.format });
  if (options.createIndex) params.set('create_index', 'true');
  if (options.sourceType) params.set('source_type', options.sourceType);
  if (options.timestampField) params.set('timestamp_field', options.timestampField);
  if (!options.reingest) params.set('ingest_id', chunk.ingestId);
  const response = await fetch(`${url}/v1/ingest?${params}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/x-ndjson' },
    body: chunk.bytes,
  });
  const body = (await response.json().catch(() => ({}))) as {
    ingested?: number;
    rejected?: number;
    events_without_time?: number;
    errors?: LineError[];
    error?: string;
    bytes?: number;
    format?: string;
    duplicate?: boolean;
  };
  // eslint-disable-next-line no-restricted-syntax -- relays the server's own error answer
  if (!response.ok) throw new Error(`server at ${url} refused lines ${chunk.firstLine} to ${chunk.lastLine}: ${body.error ?? response.statusText}`);
  return {
    ingested: body.ingested ?? 0,
    rejected: body.rejected ?? 0,
    withoutTime: body.events_without_time ?? 0,
    errors: body.errors ?? [],
    bytes: body.bytes ?? chunk.bytes.length,
    format: body.format ?? null,
    duplicate: body.duplicate ?? false,
  };
}

function report(ctx: CliContext, results: readonly FileResult[], options: IngestCommandOptions, seconds: number): void {
  const sum = (pick: (r: FileResult) => number): number => results.reduce((n, r) => n + pick(r), 0);
  const ingested = sum((r) => r.ingested);
  const bytes = sum((r) => r.bytes);
  if (options.json) {
    printJson(ctx.stdout, {
      ingested,
      already_ingested: sum((r) => r.alreadyIngested),
      rejected: sum((r) => r.rejected),
      events_without_time: sum((r) => r.withoutTime),
      bytes,
      seconds,
      files: results.map(({ alreadyIngested, withoutTime, ...r }) => ({ ...r, already_ingested: alreadyIngested, events_without_time: withoutTime })),
    });
    return;
  }
  for (const r of results) {
    const read = r.format === null ? '' : `, read as ${r.gzip ? `gzip of ${r.format}` : r.format}`;
    const skipped = r.alreadyIngested > 0 ? `; ${formatCount(r.alreadyIngested)} more were ingested by an earlier run and skipped` : '';
    ctx.stdout.write(`${r.file}: ${formatCount(r.ingested)} ingested, ${formatCount(r.rejected)} rejected (${formatBytes(r.bytes)}${read})${skipped}\n`);
    for (const e of r.errors.slice(0, 10)) ctx.stderr.write(`  ${r.file}:${e.line}: ${e.error}\n`);
    if (r.rejected > 10) ctx.stderr.write(`  … ${formatCount(r.rejected - Math.min(r.errors.length, 10))} more rejected lines\n`);
    if (r.withoutTime > 0) {
      ctx.stderr.write(
        `warning: ${r.file}: ${formatCount(r.withoutTime)} events had no time of their own (none of the index's timestamp fields held one) and got the ingest time; name their time field with --timestamp-field\n`,
      );
    }
  }
  ctx.stdout.write(
    `total: ${formatCount(ingested)} events into ${options.index} in ${seconds.toFixed(1)} s (${formatCount(ingested / Math.max(seconds, 0.001))} events/s, ${formatBytes(bytes / Math.max(seconds, 0.001))}/s)\n`,
  );
}

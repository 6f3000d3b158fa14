import { ErrorCodes, IngestError, PayloadTooLargeError, VigilError } from '../core/index.js';
import { BatchWriter } from './batch-writer.js';
import { classifyFirstLine, isBlankLine, secondLineIsEvent } from './detect-format.js';
import { EventCollector } from './event-collector.js';
import { InputDecoder, type InputSource } from './input-decoder.js';
import { defaultSourceType, type IngestDependencies, type IngestOptions, type IngestSummary, type IngestTarget } from './ingest-types.js';
import { LineSplitter } from './line-splitter.js';

// Defaults of IngestOptions.
export const defaultBatchRows = 50_000;
export const defaultBatchBytes = 64 * 1024 * 1024;
export const defaultMaxReportedErrors = 100;
/** Largest JSON document (array or pretty-printed) read whole; NDJSON and text have no such cap. */
export const maxDocumentBytes = 128 * 1024 * 1024;
/** Least time between two progress reports. */
const progressIntervalMs = 250;

/**
 * Reads events from a byte or text stream (NDJSON, JSON array, CloudTrail `Records`, a
 * pretty-printed JSON document, plain text; any of them gzipped), flattens and timestamps them,
 * and writes them through the engine in batches. Bad lines are counted and reported, never fatal.
 * Batches are acknowledged as they are written: if ingest fails part-way (size cap, corrupt gzip,
 * engine failure, abort), the batches already written stay written.
 */
export async function ingestStream(source: InputSource, target: IngestTarget, deps: IngestDependencies, options: IngestOptions = {}): Promise<IngestSummary> {
  return new IngestRun(target, deps, options).run(source);
}

type Mode = 'detect' | 'undecided' | 'ndjson' | 'text' | 'document';

class IngestRun {
  private readonly writer: BatchWriter;
  private readonly collector: EventCollector;
  private mode: Mode;
  private lineNo = 0;
  /** Lines kept while the format is open, and the whole text of a document. */
  private held: string[] = [];
  private heldFirstLine = 0;
  private format = 'ndjson';
  private decoder: InputDecoder | null = null;
  private lastProgressMs = Number.NEGATIVE_INFINITY;

  constructor(
    target: IngestTarget,
    private readonly deps: IngestDependencies,
    private readonly options: IngestOptions,
  ) {
    this.writer = new BatchWriter(
      deps,
      { tenant: target.tenantId, indexId: target.indexId, sourceType: target.sourceType || defaultSourceType },
      { batchRows: options.batchRows ?? defaultBatchRows, batchBytes: options.batchBytes ?? defaultBatchBytes },
      () => this.progress(false),
      (lineNo, reason) => this.collector.reject(lineNo, reason),
    );
    this.collector = new EventCollector(this.writer, this.writer.rowEncoder(target.timestampFields, deps.clock), options.maxReportedErrors ?? defaultMaxReportedErrors);
    this.mode = options.format === 'ndjson' ? 'ndjson' : options.format === 'text' ? 'text' : 'detect';
    if (options.format === 'text') this.format = 'text';
  }

  async run(source: InputSource): Promise<IngestSummary> {
    const decoder = new InputDecoder(source, this.options.maxBytes, this.options.signal);
    this.decoder = decoder;
    const splitter = new LineSplitter();
    const signal = this.options.signal;
    try {
      signal?.throwIfAborted();
      for await (const chunk of decoder.text()) {
        signal?.throwIfAborted();
        for (const line of splitter.push(chunk)) {
          this.line(line);
          if (this.writer.full) await this.writer.flush();
        }
        if ((this.mode === 'document' || this.mode === 'undecided') && decoder.decodedBytes > maxDocumentBytes) {
          throw new PayloadTooLargeError(`JSON document exceeds ${maxDocumentBytes} bytes; send one event per line (NDJSON) instead`);
        }
        this.progress(false);
      }
      // after corruption the last piece is a line cut short by the damage, not a complete line
      const last = decoder.corruption === null ? splitter.finish() : null;
      if (last !== null) this.line(last);
      await this.endOfInput();
      await this.writer.flush();
      await this.writer.drain();
      if (decoder.corruption !== null) {
        throw new IngestError(`${decoder.corruption.message}; the ${this.writer.ingested} events before the damage were ingested`, { cause: decoder.corruption.cause });
      }
      this.progress(true);
      return {
        ingested: this.writer.ingested,
        rejected: this.collector.rejected,
        withoutTime: this.writer.withoutTime,
        errors: this.collector.errors,
        bytes: decoder.decodedBytes,
        format: this.format,
        gzip: decoder.gzip,
      };
    } catch (error) {
      await this.writer.settle();
      try {
        this.progress(true);
      } catch {
        // a failing progress callback must not hide why ingest stopped
      }
      if (error instanceof PayloadTooLargeError) {
        // batches before the limit stay written: say which, so the client resends only the rest
        throw new PayloadTooLargeError(`${error.message}; ${this.writtenSoFar('limit')}`, { cause: error });
      }
      if (error instanceof VigilError && (error.code === ErrorCodes.insufficientStorage || error.code === ErrorCodes.unavailable)) {
        // a full disk or a data dir that cannot be written passes: tell the client where to resume
        throw new VigilError(error.code, `${error.message}; ${this.writtenSoFar('failure')}`, { cause: error });
      }
      throw error;
    }
  }

  /** What a failed ingest wrote, for its error: events and the input lines they cover. */
  private writtenSoFar(stop: string): string {
    const { ingested, writtenThroughLine: line } = this.writer;
    if (ingested === 0) return `no events were ingested before the ${stop}`;
    return `the ${ingested} events before the ${stop} were ingested (input lines 1 to ${line}; resend from line ${line + 1})`;
  }

  /** Routes one line (1-based numbering counts every line, blank ones too). */
  private line(text: string): void {
    const lineNo = ++this.lineNo;
    switch (this.mode) {
      case 'ndjson':
        if (!isBlankLine(text)) this.collector.ndjsonLine(text, lineNo);
        return;
      case 'text':
        if (!isBlankLine(text)) this.collector.textLine(text, lineNo);
        return;
      case 'document':
        this.held.push(text);
        return;
      case 'detect':
        this.held.push(text);
        if (!isBlankLine(text)) this.detect(text, lineNo);
        return;
      case 'undecided':
        this.held.push(text);
        if (isBlankLine(text)) return;
        if (secondLineIsEvent(text)) {
          this.startNdjson();
          this.collector.ndjsonLine(text, lineNo);
        } else {
          this.mode = 'document';
        }
        return;
    }
  }

  private detect(text: string, lineNo: number): void {
    const verdict = classifyFirstLine(text);
    switch (verdict) {
      case 'ndjson':
        this.held = [];
        this.mode = 'ndjson';
        this.collector.ndjsonLine(text, lineNo);
        return;
      case 'text':
        this.held = [];
        this.mode = 'text';
        this.format = 'text';
        this.collector.textLine(text, lineNo);
        return;
      case 'json-document':
        this.mode = 'document';
        return;
      case 'undecided':
        this.heldFirstLine = lineNo;
        this.mode = 'undecided';
        return;
    }
  }

  /** The held first line was NDJSON cut short: report it as such and carry on line by line. */
  private startNdjson(): void {
    const first = this.held.find((line) => !isBlankLine(line));
    this.held = [];
    this.mode = 'ndjson';
    if (first !== undefined) this.collector.ndjsonLine(first, this.heldFirstLine);
  }

  private async endOfInput(): Promise<void> {
    if (this.mode === 'undecided') this.startNdjson(); // a lone incomplete line is a bad line
    if (this.mode === 'ndjson') this.format = this.collector.sawRecords ? 'cloudtrail' : 'ndjson';
    if (this.mode !== 'document' || this.decoder?.corruption) return;
    const text = this.held.join('\n');
    this.held = [];
    this.format = await this.collector.document(text);
  }

  private progress(force: boolean): void {
    const onProgress = this.options.onProgress;
    if (onProgress === undefined || this.decoder === null) return;
    const now = this.deps.clock.nowMs();
    if (!force && now - this.lastProgressMs < progressIntervalMs) return;
    this.lastProgressMs = now;
    onProgress({ bytesRead: this.decoder.bytesRead, ingested: this.writer.ingested, rejected: this.collector.rejected });
  }
}

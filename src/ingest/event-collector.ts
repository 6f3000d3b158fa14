import { IngestError } from '../core/index.js';
import type { BatchWriter } from './batch-writer.js';
import type { IngestRowEncoder } from './ingest-row-encoder.js';
import type { LineError } from './ingest-types.js';
import { describeJsonDocumentFailure, describeJsonFailure, parseJsonSequence } from './parse-json-lossless.js';
import { isJsonObject, notAnObjectReason, parseJsonText } from './parse-json-text.js';

/** Which reader a document turned out to be. */
export type DocumentFormat = 'json-array' | 'cloudtrail' | 'json-document';

/**
 * Turns lines and documents into events for the batch writer, and bad input into line errors
 * (all counted, the first `maxReportedErrors` kept). One bad line or element never stops the
 * others.
 */
export class EventCollector {
  rejected = 0;
  readonly errors: LineError[] = [];
  /** True once a `{"Records": [...]}` wrapper was expanded. */
  sawRecords = false;

  constructor(
    private readonly writer: BatchWriter,
    /** `writer.rowEncoder`, which encodes events into the writer's rows. */
    private readonly rows: IngestRowEncoder,
    private readonly maxReportedErrors: number,
  ) {}

  /** One NDJSON line: an object is an event (its raw text is the line exactly), `Records` expands. */
  ndjsonLine(line: string, lineNo: number): void {
    const result = parseJsonText(line);
    if (!result.ok) return this.reject(lineNo, `invalid JSON: ${describeJsonFailure(result)}`);
    const value = result.value;
    if (!isJsonObject(value)) return this.reject(lineNo, notAnObjectReason(value));
    const records = recordsOf(value);
    if (records === null) return this.event(value, line, lineNo);
    this.sawRecords = true;
    for (let i = 0; i < records.length; i++) {
      const record = records[i];
      if (isJsonObject(record)) this.event(record, JSON.stringify(record), lineNo);
      else this.reject(lineNo, `Records[${i}]: ${notAnObjectReason(record)}`);
    }
  }

  /** One plain-text line: the event `{"message": line}`. */
  textLine(line: string, lineNo: number): void {
    const event = { message: line };
    this.event(event, JSON.stringify(event), lineNo);
  }

  /**
   * A whole JSON document (or several, whitespace-separated): array elements, `Records`
   * entries and bare objects become events, numbered by their 1-based position across the
   * input. Yields to the writer whenever a batch fills. A document that is not valid JSON is
   * refused as a whole.
   */
  async document(text: string): Promise<DocumentFormat> {
    const single = parseJsonText(text);
    let values: unknown[];
    if (single.ok) {
      values = [single.value];
    } else {
      const sequence = parseJsonSequence(text);
      if (!sequence.ok) throw new IngestError(`invalid JSON document: ${describeJsonDocumentFailure(sequence, text)}`);
      values = sequence.values;
    }
    let format: DocumentFormat | null = null;
    let position = 0;
    for (const value of values) {
      const records = isJsonObject(value) ? recordsOf(value) : null;
      format ??= Array.isArray(value) ? 'json-array' : records !== null ? 'cloudtrail' : 'json-document';
      const elements = Array.isArray(value) ? value : (records ?? [value]);
      if (records !== null) this.sawRecords = true;
      for (const element of elements) {
        position++;
        if (isJsonObject(element)) this.event(element, JSON.stringify(element), position);
        else this.reject(position, notAnObjectReason(element));
        if (this.writer.full) await this.writer.flush();
      }
    }
    return format ?? 'json-document';
  }

  /** Counts a rejected line; keeps the first `maxReportedErrors` for the summary. */
  reject(line: number, error: string): void {
    this.rejected++;
    // lines the engine refuses are reported after later lines were read: keep input order
    let at = this.errors.length;
    while (at > 0 && (this.errors[at - 1] as LineError).line > line) at--;
    if (at >= this.maxReportedErrors) return;
    this.errors.splice(at, 0, { line, error });
    if (this.errors.length > this.maxReportedErrors) this.errors.pop();
  }

  private event(value: Record<string, unknown>, rawJson: string, lineNo: number): void {
    let row;
    try {
      row = this.rows.event(value, rawJson);
    } catch (error) {
      if (error instanceof IngestError) return this.reject(lineNo, error.message);
      throw error;
    }
    this.writer.add(row, lineNo);
  }
}

/** The records of a CloudTrail file object: its only key is `Records`, holding an array. */
function recordsOf(value: Record<string, unknown>): unknown[] | null {
  const records = value['Records'];
  if (!Array.isArray(records)) return null;
  for (const key in value) if (key !== 'Records') return null;
  return records;
}

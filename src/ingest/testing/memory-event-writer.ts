import { ManualClock } from '../../core/index.js';
import type { EncodedEvent, Engine, EventBatch, EventEncoder, EventFieldsInput, EventHeadInput, EventRowInput, FieldPathIds } from '../../engine/index.js';
import { setPath, type FlatValue } from '../flatten-event.js';
import type { IngestDependencies } from '../ingest-types.js';
import { valuesText } from '../values-text.js';

/** A row as the test double stores it: bigints as decimal strings so rows compare with toEqual. */
export type StoredRow = Omit<EventRowInput, 'tsNs' | 'seq'> & { readonly tsNs: string; readonly seq: string };

/** What the stand-in's head holds: the head's fields that the row after it does not repeat. */
type HeadFields = Pick<EventHeadInput, 'tsField' | 'rawJson' | 'searchText'>;

/**
 * An in-memory stand-in for the engine's writing half: keeps rows as given, records each
 * insert as a batch, counts inserts running at once, and can be told to be slow or to fail.
 * An insert whose time extents do not hold each row's time (the Engine contract) fails. Its
 * "encoded" head and fields are their inputs as JSON, read back at the insert.
 */
export class MemoryEventWriter implements Pick<Engine, 'eventEncoder' | 'insertEvents'> {
  readonly batches: StoredRow[][] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Milliseconds each insert takes (real time; keep small). */
  delayMs = 0;
  /** Inserts numbered from 1 that fail. */
  failOnInsert: ReadonlySet<number> = new Set();
  private inserts = 0;

  eventEncoder(paths: FieldPathIds): EventEncoder {
    return new JsonEventEncoder(paths);
  }

  async insertEvents(batch: EventBatch): Promise<{ rows: number }> {
    const insert = ++this.inserts;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (this.failOnInsert.has(insert)) throw new Error(`insert ${insert} failed`);
      const rows = batch.rows.map(({ head, fields, event }): StoredRow => {
        const { tsField, rawJson, searchText } = JSON.parse(Buffer.from(head).toString()) as HeadFields;
        const { attrs, nullPaths } = JSON.parse(Buffer.from(fields).toString()) as EventFieldsInput;
        return { ...event, attrs, nullPaths, tsField, rawJson, searchText, tsNs: event.tsNs.toString(), seq: event.seq.toString() };
      });
      for (const row of rows) {
        const held = batch.extents.some((e) => e.tenant === row.tenant && e.indexId === row.indexId && e.minTsNs <= BigInt(row.tsNs) && BigInt(row.tsNs) <= e.maxTsNs);
        if (!held) throw new Error(`insert ${insert}: no time extent holds the row at ${row.tsNs} of index ${row.indexId}`);
      }
      this.batches.push(rows);
      return { rows: rows.length };
    } finally {
      this.inFlight--;
    }
  }

  /** Every row written, in order. */
  get rows(): StoredRow[] {
    return this.batches.flat();
  }
}

/**
 * The stand-in's encoder: collects a row's values by path name, then gives its head and fields
 * as JSON, with the search text the engine's encoder makes of the same values (`valuesText`).
 */
class JsonEventEncoder implements EventEncoder {
  private attrs: Record<string, FlatValue> = {};
  private nullPaths: string[] = [];

  constructor(private readonly paths: FieldPathIds) {}

  string(pathId: number, value: string): void {
    setPath(this.attrs, this.pathOf(pathId), value);
  }

  number(pathId: number, value: number): void {
    setPath(this.attrs, this.pathOf(pathId), value);
  }

  null(pathId: number): void {
    this.nullPaths.push(this.pathOf(pathId));
  }

  discardRow(): void {
    this.attrs = {};
    this.nullPaths = [];
  }

  endRow(tsField: string, rawJson: string): EncodedEvent {
    const { attrs, nullPaths } = this;
    this.discardRow();
    return {
      head: Buffer.from(JSON.stringify({ tsField, rawJson, searchText: valuesText(attrs) } satisfies HeadFields)),
      fields: Buffer.from(JSON.stringify({ attrs, nullPaths } satisfies EventFieldsInput)),
    };
  }

  private pathOf(pathId: number): string {
    const path = this.paths.paths[pathId];
    if (path === undefined) throw new Error(`path id ${pathId} is not one of the writer's`);
    return path;
  }
}

/** Ingest dependencies over a memory writer, a counting sequence and a manual clock. */
export function memoryDeps(
  writer = new MemoryEventWriter(),
  clock = new ManualClock(Date.UTC(2024, 2, 1, 12, 0, 0)),
): IngestDependencies & { writer: MemoryEventWriter; reservations: number[]; clock: ManualClock } {
  let next = 1n;
  const reservations: number[] = [];
  return {
    engine: writer,
    writer,
    reservations,
    clock,
    reserveSequence: async (count: number) => {
      reservations.push(count);
      const first = next;
      next += BigInt(count);
      return first;
    },
  };
}

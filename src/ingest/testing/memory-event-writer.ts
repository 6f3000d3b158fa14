import { ManualClock } from '../../core/index.js';
import type { Engine, EventBatch, EventFieldsInput, EventHeadInput, EventRowInput } from '../../engine/index.js';
import type { IngestDependencies } from '../ingest-types.js';

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
export class MemoryEventWriter implements Pick<Engine, 'encodeEventHead' | 'encodeEventFields' | 'insertEvents'> {
  readonly batches: StoredRow[][] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Milliseconds each insert takes (real time; keep small). */
  delayMs = 0;
  /** Inserts numbered from 1 that fail. */
  failOnInsert: ReadonlySet<number> = new Set();
  private inserts = 0;

  encodeEventHead({ tsField, rawJson, searchText }: EventHeadInput): Uint8Array {
    return Buffer.from(JSON.stringify({ tsField, rawJson, searchText } satisfies HeadFields));
  }

  encodeEventFields({ attrs, nullPaths }: EventFieldsInput): Uint8Array {
    return Buffer.from(JSON.stringify({ attrs, nullPaths } satisfies EventFieldsInput));
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

import type { Clock } from '../core/index.js';
import type { Engine, EventEncoder, FieldPathIds } from '../engine/index.js';
import { buildPendingRow, type PendingRow } from './build-event-row.js';
import { EventWalker } from './event-walker.js';
import { pickEventTimeOf } from './pick-event-time.js';

/** Per-row bytes of the encoding beyond the raw text and the fields (the head's lengths and value separators, time, seq, map). */
const rowOverheadBytes = 160;

/** One event encoded for the open batch (`BatchWriter.add`). */
export interface EncodedRow {
  readonly head: Uint8Array;
  readonly fields: Uint8Array;
  readonly tsNs: bigint;
  /** False when the row was stamped with the ingest time (no timestamp field gave one). */
  readonly timed: boolean;
  /** The row's estimated share of a batch: its raw text, its fields and a fixed allowance. */
  readonly bytes: number;
}

/**
 * Encodes the events of one ingest as they are read: walked into the engine's encoder field by
 * field (`EventWalker`), or, for the rare event the walk leaves to it, flattened first
 * (`buildPendingRow`). Both give the same row. Rows name their paths by the ids of `paths`:
 * a `BatchWriter` makes its own (`BatchWriter.rowEncoder`).
 */
export class IngestRowEncoder {
  private readonly encoder: EventEncoder;
  private readonly walker: EventWalker;

  constructor(
    engine: Pick<Engine, 'eventEncoder'>,
    private readonly paths: FieldPathIds,
    private readonly timestampFields: readonly string[],
    private readonly clock: Clock,
  ) {
    this.encoder = engine.eventEncoder(paths);
    this.walker = new EventWalker(paths, timestampFields);
  }

  /** One parsed event and its raw text. Throws `IngestError` for an event ingest refuses. */
  event(event: Record<string, unknown>, rawJson: string): EncodedRow {
    if (!this.walker.walk(event, this.encoder)) return this.pending(buildPendingRow(event, rawJson, this.timestampFields, this.clock));
    const { tsNs, tsField } = pickEventTimeOf(this.walker.times, this.timestampFields, this.clock);
    return this.ended(tsField, rawJson, tsNs);
  }

  /** A row already flattened and timestamped. */
  pending(row: PendingRow): EncodedRow {
    const { encoder, paths } = this;
    const { attrs, nullPaths } = row;
    for (const path in attrs) {
      const value = attrs[path] as string | number;
      if (typeof value === 'string') encoder.string(paths.idOf(path), value);
      else encoder.number(paths.idOf(path), value);
    }
    for (const path of nullPaths) encoder.null(paths.idOf(path));
    return this.ended(row.tsField, row.rawJson, row.tsNs);
  }

  private ended(tsField: string, rawJson: string, tsNs: bigint): EncodedRow {
    const { head, fields } = this.encoder.endRow(tsField, rawJson);
    return { head, fields, tsNs, timed: tsField !== '', bytes: rawJson.length + fields.length + rowOverheadBytes };
  }
}

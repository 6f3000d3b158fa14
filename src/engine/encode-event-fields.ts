/**
 * Encodes an event's fields as ingest reads it, into bytes outside the JavaScript heap, so the
 * flattened event (an object of 29-56 paths and their values for a Windows event) dies with its
 * row instead of living in the open batch until the block is encoded: held that long, it
 * survived several scavenges, and the garbage collector took about 12 of Node's 26 CPU seconds
 * of a Windows ingest (docs/engine.md, "Writing events").
 *
 * A field is its path's id (in the writer's `FieldPathIds`) and its catalog type, as one LEB128
 * number `id * 4 + type`, then its value as the block writes it: a String (a LEB128 length and
 * the UTF-8 bytes) or a Float64 (8 bytes, little-endian); a null path has no value. The block
 * encoder copies the values as they are into the slot or rest column its map gives the path.
 */
import { float64Type, int64Type, nullType, stringType } from './lineage-paths.js';
import { fieldSlabs as writer } from './row-slabs.js';

/**
 * Path ids of one writer of events (an ingest): a path's id is its place in `paths`. Ids are
 * per writer, not per engine, so what one ingest meets is forgotten with it.
 */
export class FieldPathIds {
  readonly paths: string[] = [];
  private readonly ids = new Map<string, number>();

  idOf(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = this.paths.push(path) - 1;
      this.ids.set(path, id);
    }
    return id;
  }
}

/** An event's fields: the engine's `EventFieldsInput`, spelt out so that the contract may name `FieldPathIds`. */
interface EventFields {
  readonly attrs: Readonly<Record<string, string | number>>;
  readonly nullPaths: readonly string[];
}

/** The fields of one event (its attrs, then its null paths, in order), with path ids from `paths`. */
export function encodeEventFields({ attrs, nullPaths }: EventFields, paths: FieldPathIds): Uint8Array {
  writer.startRow();
  for (const path in attrs) {
    const id = paths.idOf(path) * 4;
    const value = attrs[path] as string | number;
    if (typeof value === 'string') {
      writer.varUInt(id + stringType);
      writer.string(value);
    } else {
      writer.varUInt(id + (Number.isSafeInteger(value) ? int64Type : float64Type));
      writer.float64(value);
    }
  }
  for (const path of nullPaths) writer.varUInt(paths.idOf(path) * 4 + nullType);
  return writer.endRow();
}

/** One field as `EventFieldsReader` gives it: the path's id and catalog type, and its value's bytes `[start, end)` (none for null). */
export interface FieldAt {
  id: number;
  type: number;
  start: number;
  end: number;
}

/**
 * Steps through encoded fields: each call of `next` moves `at` to the next field and answers
 * false at the end. One object for all fields, so reading a batch allocates nothing per field.
 * Bytes that are not encoded fields end the reading where they stop making sense.
 */
export class EventFieldsReader {
  readonly field: FieldAt = { id: 0, type: 0, start: 0, end: 0 };
  private bytes: Uint8Array = new Uint8Array(0);
  private at = 0;

  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.at = 0;
  }

  next(): boolean {
    const bytes = this.bytes;
    if (this.at >= bytes.length) return false;
    const code = this.varUInt();
    const field = this.field;
    field.id = Math.floor(code / 4);
    field.type = code & 3;
    field.start = this.at;
    if (field.type === stringType) {
      const length = this.varUInt();
      this.at = Math.min(this.at + length, bytes.length);
    } else if (field.type !== nullType) this.at = Math.min(this.at + 8, bytes.length);
    field.end = this.at;
    return true;
  }

  private varUInt(): number {
    const bytes = this.bytes;
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[this.at++];
      if (byte === undefined) return value;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }
}

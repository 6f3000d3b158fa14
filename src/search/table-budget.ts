/**
 * `max_bytes` bounds our in-memory table (docs/interface.md 2.1). A row is counted as JavaScript holds
 * it: each column name and string value at two bytes per UTF-16 unit, eight bytes per number,
 * plus a fixed 32 bytes per cell and per row for the object and array slots.
 */
import type { DecodedRow } from './decode-rows.js';

const cellOverhead = 32;
const rowOverhead = 32;

/**
 * Sizes already computed: the decoder's bound, the budget's admit and its release all ask for
 * the same row, and walking its ~100 columns each time cost 2-3 ms per 1,000 events.
 */
const sizes = new WeakMap<DecodedRow, number>();

/** Approximate bytes one result row holds in memory (rows are not changed once decoded). */
export function rowBytes(row: DecodedRow): number {
  const known = sizes.get(row);
  if (known !== undefined) return known;
  const bytes = measureRow(row);
  sizes.set(row, bytes);
  return bytes;
}

function measureRow(row: DecodedRow): number {
  let bytes = rowOverhead + (row.rowId ? 2 * (row.rowId.t.length + row.rowId.s.length) : 0);
  for (const name in row.columns) {
    const value = row.columns[name];
    bytes += cellOverhead + 2 * name.length + (typeof value === 'string' ? 2 * value.length : 8);
  }
  return bytes;
}

/** Accumulates rows until `maxBytes` would be exceeded. */
export class TableBudget {
  private used = 0;
  /** True once a row was refused for lack of room. */
  exceeded = false;

  constructor(private readonly maxBytes: number) {}

  /** Counts the row in if it fits; false (and `exceeded`) when it does not. */
  admit(row: DecodedRow): boolean {
    const bytes = rowBytes(row);
    if (this.used + bytes > this.maxBytes) {
      this.exceeded = true;
      return false;
    }
    this.used += bytes;
    return true;
  }

  /** Gives back the room of an admitted row that was left out of the table after all. */
  release(row: DecodedRow): void {
    this.used -= rowBytes(row);
  }

  /** Bytes still free. */
  get remaining(): number {
    return this.maxBytes - this.used;
  }

  get bytes(): number {
    return this.used;
  }
}

/**
 * Where the stored columns of the indexes in scope are (docs/engine.md, "Typed slots"): the
 * engine's `fieldLayout` builds it from its field maps, and the query compiler reads each column
 * where it says (in core because both layers speak it and neither may import the other). Rows
 * carry a field map id; each map puts the strings and numbers of some columns in typed slot
 * columns (`s<k>`, `n<k>`), the others in the maps `rest_s` and `rest_n`; rows of map 0 were
 * written before typed slots and hold their columns in the JSON column `attrs`.
 */
export interface StoredLayout {
  /** Some rows in scope are of map 0 (columns in `attrs`). */
  readonly legacy: boolean;
  /** Every map id range rows in scope may carry (inclusive), one per lineage. */
  readonly mapRanges: readonly (readonly [bigint, bigint])[];
  /** Per path, the slots holding it and the map id ranges whose rows put it there. */
  readonly slots: ReadonlyMap<string, readonly StoredSlot[]>;
  /** `s:path` / `n:path`: every map in scope holds the column's strings / numbers in a slot, so the rest maps never do. */
  readonly slotted: ReadonlySet<string>;
}

export interface StoredSlot {
  /** `s<k>` holds the column's strings, `n<k>` its numbers. */
  readonly column: string;
  readonly kind: 'string' | 'number';
  /** The lineages (whole map id ranges, inclusive) that put the column here; their other versions leave the slot empty. */
  readonly mapRanges: readonly (readonly [bigint, bigint])[];
  /** Another column is in this slot for some map in scope, so a row's map id says whose value it holds. */
  readonly shared: boolean;
}

/** No map known: every column is read from the rest maps (a store with no event written since schema v10). */
export const restOnlyLayout: StoredLayout = { legacy: false, mapRanges: [], slots: new Map(), slotted: new Set() };

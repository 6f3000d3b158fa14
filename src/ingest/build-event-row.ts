import { isUnderNamespace, systemNamespace, systemNamespaceAliases, type Clock } from '../core/index.js';
import { flattenEvent, flattenEventInto, setPath, type FlatEvent, type FlatValue } from './flatten-event.js';
import { pickEventTime } from './pick-event-time.js';
import { wellFormedJsonText, wellFormedValue } from './well-formed-text.js';

/**
 * An event flattened and timestamped, for the events `EventWalker` leaves to flattening
 * (`IngestRowEncoder.pending` encodes it); the engine makes its search text from the values.
 */
export interface PendingRow {
  readonly tsNs: bigint;
  readonly tsField: string;
  readonly rawJson: string;
  /** The flattened event's columns (D3), in its order. */
  readonly attrs: Readonly<Record<string, FlatValue>>;
  readonly nullPaths: readonly string[];
}

/**
 * Flattens, timestamps and serializes one event. The event time is chosen before reserved
 * paths are dropped, so an index may name e.g. `@svc.datetime` as its timestamp field. Every
 * event of every reader and endpoint becomes a row here, so this is where a lone surrogate in
 * any string, key or the raw text becomes U+FFFD (well-formed-text.ts): the engine refuses one,
 * and with it the whole batch.
 */
export function buildPendingRow(event: Record<string, unknown>, rawJson: string, timestampFields: readonly string[], clock: Clock): PendingRow {
  let flat = flattenEvent(event);
  if (flat.loneSurrogate) {
    // The raw text is the event's JSON, so its lone surrogates are escapes there.
    event = wellFormedValue(event) as Record<string, unknown>;
    rawJson = wellFormedJsonText(rawJson);
    flat = flattenEvent(event);
  }
  const { tsNs, tsField } = pickEventTime(flat.attrs, timestampFields, clock);
  const { attrs, nullPaths } = withoutReservedPaths(event, flat);
  return { tsNs, tsField, rawJson, attrs, nullPaths };
}

/**
 * The user columns stored for an event, from its raw text parsed exactly (`parseJsonText`):
 * exactly what `buildPendingRow` wrote (anything but an object has none). Searches rebuild
 * returned events from `raw` this way (through `addStoredColumns`), which is far cheaper than
 * reading the JSON column back (docs/benchmarks-journal.md).
 */
export function storedColumnsOf(event: unknown): FlatEvent {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return { attrs: {}, nullPaths: [] };
  const object = event as Record<string, unknown>;
  // a stored event is read back whole, however deep (ingest limits depth, and once allowed 101 levels)
  return withoutReservedPaths(object, flattenEvent(object, Number.POSITIVE_INFINITY));
}

/**
 * Adds an event's stored columns to `row` after what it holds: the values in flattening order,
 * then the paths that held null, as null; the same columns in the same order as `storedColumnsOf`
 * gives them (attrs, then null paths), without building them apart first. Search decodes every
 * returned event this way, a thousand per page. Reserved paths get no column, as in storage.
 */
export function addStoredColumns(row: Record<string, FlatValue | null>, event: unknown): void {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return;
  const object = event as Record<string, unknown>;
  if (hasReservedTopKey(object)) {
    const { attrs, nullPaths } = storedColumnsOf(object);
    for (const path in attrs) setPath(row, path, attrs[path] as FlatValue);
    for (const path of nullPaths) if (!(path in row)) setPath(row, path, null);
    return;
  }
  // Nulls the row already held stay where they are (the caller's columns hold none in practice).
  const heldNull: string[] = [];
  for (const path in row) if (row[path] === null) heldNull.push(path);
  if (!flattenEventInto(object, row)) return;
  // Null paths go last, in their order: deleting and adding a key moves it to the end.
  const nullPaths: string[] = [];
  for (const path in row) if (row[path] === null && !heldNull.includes(path)) nullPaths.push(path);
  for (const path of nullPaths) {
    delete row[path];
    setPath(row, path, null);
  }
}

function withoutReservedPaths(event: Record<string, unknown>, flat: FlatEvent): FlatEvent {
  if (!hasReservedTopKey(event)) return flat;
  const attrs: Record<string, FlatValue> = {};
  for (const path in flat.attrs) if (!isReservedPath(path)) setPath(attrs, path, flat.attrs[path] as FlatValue);
  return { attrs, nullPaths: flat.nullPaths.filter((path) => !isReservedPath(path)) };
}

/**
 * System columns (query-language D4) are computed from the row, never taken from the event: a
 * user value under `@svc.*`, `@scnr.*` and `@scanner.*` (its aliases), `@index`, `@index_id` or
 * `%ingest.source_type` would shadow them, so it stays in the raw text but gets no column.
 */
export function isReservedPath(path: string): boolean {
  const c = path.charCodeAt(0);
  if (c === 64) {
    return isUnderNamespace(path, systemNamespace) || systemNamespaceAliases.some((alias) => isUnderNamespace(path, alias)) || path === '@index' || path === '@index_id';
  }
  return c === 37 && path === '%ingest.source_type';
}

/** Cheap pre-check on top-level keys, so ordinary events (even with `@timestamp`) skip filtering. */
function hasReservedTopKey(event: Record<string, unknown>): boolean {
  for (const key in event) {
    const c = key.charCodeAt(0);
    if (c === 64 && (key.startsWith('@svc') || key.startsWith('@scnr') || key.startsWith('@scanner') || key.startsWith('@index'))) return true;
    if (c === 37 && key.startsWith('%ingest')) return true;
  }
  return false;
}

import { IngestError } from '../core/index.js';

/** A flattened value: strings, and numbers that JavaScript holds exactly (query-language D3). */
export type FlatValue = string | number;

/** One event flattened into columns (query-language D3). */
export interface FlatEvent {
  /** Column path → value; each path once, no nulls. */
  readonly attrs: Record<string, FlatValue>;
  /** Paths whose value is JSON null: the column exists but holds no value. */
  readonly nullPaths: string[];
  /** Set when a key or a string holds a lone UTF-16 surrogate, which the engine refuses (well-formed-text.ts). */
  readonly loneSurrogate?: true;
}

/**
 * Deepest nesting flattened, in levels: the event object is level 1, and each object or array
 * inside adds one (`{"a":{"b":[1]}}` is 3). Deeper events are rejected rather than making
 * absurd paths.
 */
export const maxFlattenDepth = 100;

/**
 * Flattens a parsed JSON object per D3: nested objects → `a.b.c`, array elements → `a[0]`,
 * `a[0].b`, `a[0][1]`; empty arrays and objects give nothing; null → `nullPaths`; booleans →
 * `"true"` / `"false"`; numbers stay numbers (the lossless parser already turned integers beyond
 * 2^53 into digit strings). A literal dotted key and a nested one name the same path: the later
 * one in property order wins, so every path appears once (ClickHouse rejects duplicates). A path
 * that is a prefix of another (`a` and `a.b`) is kept: they are distinct columns.
 */
export function flattenEvent(event: Record<string, unknown>, maxDepth = maxFlattenDepth): FlatEvent {
  const out: Record<string, FlatValue | null> = {};
  const flattener = new Flattener(out, maxDepth);
  flattener.object(event, '', 0);
  const loneSurrogate = flattener.wellFormed ? {} : { loneSurrogate: true as const };
  if (!flattener.hasNull) return { attrs: out as Record<string, FlatValue>, nullPaths: [], ...loneSurrogate };
  const attrs: Record<string, FlatValue> = {};
  const nullPaths: string[] = [];
  for (const path in out) {
    const value = out[path];
    if (value === null || value === undefined) nullPaths.push(path);
    else setPath(attrs, path, value);
  }
  return { attrs, nullPaths, ...loneSurrogate };
}

/**
 * Flattens into `out` after what it holds: each path once, in flattening order, null for a JSON
 * null (`flattenEvent` then splits those off). Returns whether any path ended up null. For
 * stored events, so no depth limit: what ingest stored is read back whole.
 */
export function flattenEventInto(event: Record<string, unknown>, out: Record<string, FlatValue | null>): boolean {
  const flattener = new Flattener(out, Number.POSITIVE_INFINITY);
  flattener.object(event, '', 0);
  return flattener.hasNull;
}

class Flattener {
  hasNull = false;
  // isWellFormed is O(1) on the one-byte strings most events hold only
  wellFormed = true;

  constructor(
    readonly out: Record<string, FlatValue | null>,
    private readonly maxDepth: number,
  ) {}

  // `depth` counts from 0 at the event itself, so level = depth + 1
  object(obj: Record<string, unknown>, prefix: string, depth: number): void {
    if (depth >= this.maxDepth) throw new IngestError(`event nested deeper than ${this.maxDepth} levels`);
    for (const key in obj) {
      if (!key.isWellFormed()) this.wellFormed = false;
      this.value(obj[key], depth === 0 ? key : prefix + '.' + key, depth);
    }
  }

  private array(items: unknown[], prefix: string, depth: number): void {
    if (depth >= this.maxDepth) throw new IngestError(`event nested deeper than ${this.maxDepth} levels`);
    for (let i = 0; i < items.length; i++) this.value(items[i], prefix + '[' + i + ']', depth);
  }

  private value(value: unknown, path: string, depth: number): void {
    switch (typeof value) {
      case 'string':
        if (!value.isWellFormed()) this.wellFormed = false;
        setPath(this.out, path, value);
        return;
      case 'number':
        setPath(this.out, path, value);
        return;
      case 'boolean':
        setPath(this.out, path, value ? 'true' : 'false');
        return;
      case 'object':
        if (value === null) {
          setPath(this.out, path, null);
          this.hasNull = true;
        } else if (Array.isArray(value)) {
          this.array(value, path, depth + 1);
        } else {
          this.object(value as Record<string, unknown>, path, depth + 1);
        }
        return;
      default:
        // undefined, bigint, functions: never produced by a JSON parser
        return;
    }
  }
}

/** Assigns one path; `__proto__` needs defineProperty or it would set the prototype instead. */
export function setPath<T>(out: Record<string, T>, path: string, value: T): void {
  if (path === '__proto__') Object.defineProperty(out, path, { value, enumerable: true, writable: true, configurable: true });
  else out[path] = value;
}

import { IngestError } from '../core/index.js';
import type { EventEncoder, FieldPathIds } from '../engine/index.js';
import { isReservedPath } from './build-event-row.js';
import { maxFlattenDepth, type FlatValue } from './flatten-event.js';

/**
 * One flattened path (query-language D3) an ingest has met, with what it needs to know of it once
 * rather than per event: its id, whether it is reserved, whether it is a timestamp field.
 */
class PathNode {
  /** The path's id in the ingest's `FieldPathIds`, given on its first value (-1 before). */
  id = -1;
  /** Children by key (`path.key`) and by array position (`path[i]`). */
  keys: Map<string, PathNode> | undefined = undefined;
  items: PathNode[] | undefined = undefined;

  constructor(
    readonly path: string,
    /** A system column's path (D4): the value may give the event time, but gets no column. */
    readonly reserved: boolean,
    /** The path's place in the timestamp fields, or -1. */
    readonly timeRank: number,
  ) {}
}

/** Thrown inside a walk when the event needs `flattenEvent`'s handling; caught by `walk`. */
const needsFlattening = Symbol('needs flattening');

/**
 * Walks parsed events into an `EventEncoder`, with the result `flattenEvent`, `valuesText` and
 * `encodeEventFields` give together (the same fields and head, which the property tests hold it
 * to), without building a flattened object or a path string per field: a tree of the paths met
 * so far gives each value its path's id by a lookup of the key, which `JSON.parse` made an
 * internalized string with its hash at hand. Building the flattened object (`setPath`), its path
 * strings and the values text took about 3 s of a Windows ingest's 20 s main thread.
 *
 * Rare events are left to `flattenEvent` (`walk` answers false, having written nothing): a path
 * met twice in one event (a literal dotted key and a nested one, whose later value wins in the
 * first one's place), a lone UTF-16 surrogate in a key or a string (made U+FFFD there), and a
 * top-level array-index key holding an object or an array (see `event`).
 */
export class EventWalker {
  private readonly root = new PathNode('', false, -1);
  /** Per path id, the number of the last event that gave the path a value: a repeat shows a path met twice. */
  private seen = new Int32Array(256);
  private eventNumber = 0;
  /** Per timestamp field, its value in the event walked last (undefined where it has none). */
  readonly times: (FlatValue | undefined)[];
  private encoder: EventEncoder | null = null;

  constructor(
    private readonly paths: FieldPathIds,
    private readonly timestampFields: readonly string[],
  ) {
    this.times = timestampFields.map(() => undefined);
  }

  /**
   * Writes the event's fields into `encoder` and its timestamp fields' values into `times`.
   * False when it is one for `flattenEvent` (the row is discarded); throws `IngestError` when it
   * is nested deeper than `maxFlattenDepth`.
   */
  walk(event: Record<string, unknown>, encoder: EventEncoder): boolean {
    if (++this.eventNumber === 0x7fffffff) {
      this.seen.fill(0);
      this.eventNumber = 1;
    }
    this.times.fill(undefined);
    this.encoder = encoder;
    try {
      this.event(event);
      return true;
    } catch (error) {
      encoder.discardRow();
      if (error === needsFlattening) return false;
      throw error;
    } finally {
      this.encoder = null;
    }
  }

  /**
   * The event's own keys. A flattened object lists its array-index paths first (`"2"` before
   * `"1.a"`), and only a top-level key gives one, so an array-index key holding an object or
   * array would put its paths before such a path here: those events are left to `flattenEvent`.
   */
  private event(event: Record<string, unknown>): void {
    const root = this.root;
    for (const key in event) {
      const value = event[key];
      if (typeof value === 'object' && value !== null && isArrayIndex(key)) throw needsFlattening;
      this.value(value, this.keyChild(root, key), 0);
    }
  }

  // `depth` counts from 0 at the event itself, as in `flattenEvent`
  private object(object: Record<string, unknown>, node: PathNode, depth: number): void {
    if (depth >= maxFlattenDepth) throw new IngestError(`event nested deeper than ${maxFlattenDepth} levels`);
    for (const key in object) this.value(object[key], this.keyChild(node, key), depth);
  }

  private array(items: unknown[], node: PathNode, depth: number): void {
    if (depth >= maxFlattenDepth) throw new IngestError(`event nested deeper than ${maxFlattenDepth} levels`);
    for (let i = 0; i < items.length; i++) this.value(items[i], this.itemChild(node, i), depth);
  }

  private value(value: unknown, node: PathNode, depth: number): void {
    switch (typeof value) {
      case 'string':
        if (!value.isWellFormed()) throw needsFlattening;
        this.leaf(node, value);
        return;
      case 'number':
        this.leaf(node, value);
        return;
      case 'boolean':
        this.leaf(node, value ? 'true' : 'false');
        return;
      case 'object':
        if (value === null) {
          const id = this.idOnce(node);
          if (!node.reserved) (this.encoder as EventEncoder).null(id);
        } else if (Array.isArray(value)) {
          this.array(value, node, depth + 1);
        } else {
          this.object(value as Record<string, unknown>, node, depth + 1);
        }
        return;
      default:
        // undefined, bigint, functions: never produced by a JSON parser
        return;
    }
  }

  private leaf(node: PathNode, value: FlatValue): void {
    const id = this.idOnce(node);
    if (node.timeRank >= 0) this.times[node.timeRank] = value;
    if (node.reserved) return;
    const encoder = this.encoder as EventEncoder;
    if (typeof value === 'string') encoder.string(id, value);
    else encoder.number(id, value);
  }

  /** The node's path id, once per event: a second value of the same path needs `flattenEvent`. */
  private idOnce(node: PathNode): number {
    let id = node.id;
    if (id < 0) {
      id = node.id = this.paths.idOf(node.path);
      if (id >= this.seen.length) this.growSeen(id);
    }
    if (this.seen[id] === this.eventNumber) throw needsFlattening;
    this.seen[id] = this.eventNumber;
    return id;
  }

  private keyChild(node: PathNode, key: string): PathNode {
    const keys = (node.keys ??= new Map());
    let child = keys.get(key);
    if (child === undefined) {
      if (!key.isWellFormed()) throw needsFlattening;
      child = this.node(node === this.root ? key : node.path + '.' + key);
      keys.set(key, child);
    }
    return child;
  }

  private itemChild(node: PathNode, index: number): PathNode {
    const items = (node.items ??= []);
    return (items[index] ??= this.node(node.path + '[' + index + ']'));
  }

  private node(path: string): PathNode {
    return new PathNode(path, isReservedPath(path), this.timestampFields.indexOf(path));
  }

  private growSeen(id: number): void {
    let size = this.seen.length * 2;
    while (size <= id) size *= 2;
    const next = new Int32Array(size);
    next.set(this.seen);
    this.seen = next;
  }
}

/** Whether JavaScript keeps `key` as an array index (`"0"`, `"17"`; not `"01"`), which objects list first. */
function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  const n = Number(key);
  return n >>> 0 === n && n !== 0xffffffff && String(n) === key;
}

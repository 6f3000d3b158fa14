import type { Row } from '../api/types.js';

/** An event rebuilt as a tree from its flat columns (`a.b`, `tags[0]`), each leaf keeping its column name. */
export type EventNode =
  | { readonly kind: 'leaf'; readonly column: string; readonly value: unknown }
  | { readonly kind: 'object'; readonly entries: Map<string, EventNode> }
  | { readonly kind: 'array'; readonly items: Map<number, EventNode> };

type MutableObject = { kind: 'object'; entries: Map<string, EventNode> };
type MutableArray = { kind: 'array'; items: Map<number, EventNode> };

/** Splits `a.b[0].c` into `a`, `b`, 0, `c`. */
export function pathParts(column: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const piece of column.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(piece);
    if (!m) {
      parts.push(piece);
      continue;
    }
    if (m[1]) parts.push(m[1]);
    for (const index of m[2]!.matchAll(/\[(\d+)\]/g)) parts.push(Number(index[1]));
  }
  return parts;
}

/**
 * Nests an event's user columns (system columns `@…` stay out); a column whose path collides
 * with another's (a value where an object is) is kept whole at the top level.
 */
export function eventTree(row: Row): MutableObject {
  const root: MutableObject = { kind: 'object', entries: new Map() };
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith('@')) continue;
    const parts = pathParts(column);
    if (parts.length === 0 || !place(root, parts, { kind: 'leaf', column, value })) root.entries.set(column, { kind: 'leaf', column, value });
  }
  return root;
}

function place(root: MutableObject, parts: (string | number)[], leaf: EventNode): boolean {
  let node: MutableObject | MutableArray = root;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const nextIsIndex = typeof parts[i + 1] === 'number';
    const existing: EventNode | undefined = get(node, part);
    if (last) {
      if (existing) return false;
      set(node, part, leaf);
      return true;
    }
    if (existing === undefined) {
      const child: MutableObject | MutableArray = nextIsIndex ? { kind: 'array', items: new Map() } : { kind: 'object', entries: new Map() };
      if (!set(node, part, child)) return false;
      node = child;
    } else if (existing.kind === (nextIsIndex ? 'array' : 'object')) {
      node = existing as MutableObject | MutableArray;
    } else {
      return false;
    }
  }
  return false;
}

function get(node: MutableObject | MutableArray, part: string | number): EventNode | undefined {
  return node.kind === 'object' ? node.entries.get(String(part)) : typeof part === 'number' ? node.items.get(part) : undefined;
}

function set(node: MutableObject | MutableArray, part: string | number, child: EventNode): boolean {
  if (node.kind === 'object') node.entries.set(String(part), child);
  else if (typeof part === 'number') node.items.set(part, child);
  else return false;
  return true;
}

/** One line for an event: `key=value` pairs of its user columns, shortened. */
export function summaryLine(row: Row, maxLength = 400): string {
  let line = '';
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith('@')) continue;
    const text = `${column}=${value === null ? 'null' : String(value)}`;
    line += line ? ` ${text}` : text;
    if (line.length >= maxLength) return `${line.slice(0, maxLength)}…`;
  }
  return line;
}

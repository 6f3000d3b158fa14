import { ValidationError } from '../core/index.js';
import { eventRecord, invalidRecord, type ShipperRecord } from './shipper-record.js';

/** One action of a bulk request, with the record it carries (for `index` and `create`). */
export interface BulkItem {
  /** `index`, `create`, `update` or `delete`: the key the item's result is answered under. */
  readonly action: BulkAction;
  readonly index: string | null;
  /** `_id` as given, or null (one is made for the answer). */
  readonly id: string | null;
  readonly record: ShipperRecord;
}

export type BulkAction = 'index' | 'create' | 'update' | 'delete';

/** What an invalid item is answered with: the record's error names one of these. */
export const unsupportedActionPrefix = 'unsupported action: ';

/**
 * Reads an Elasticsearch `_bulk` body: NDJSON action lines, each `index`/`create`/`update`
 * followed by one source line (`delete` has none). The source line of `index` and `create` is the
 * event exactly as sent. `update` and `delete` become invalid items (events are stored as they
 * arrive, never changed). A line that is not an action where one is due makes the whole body
 * unreadable, as Elasticsearch answers it (the pairing of the lines after it is lost): a
 * ValidationError naming the line.
 */
export function parseBulkBody(text: string, pathIndex: string | null): BulkItem[] {
  const lines = text.split('\n');
  const items: BulkItem[] = [];
  let i = 0;
  while (i < lines.length) {
    const lineNo = i + 1;
    const actionLine = withoutCr(lines[i] as string);
    i++;
    if (isBlank(actionLine)) continue;
    const { action, meta } = readAction(actionLine, lineNo);
    const index = stringField(meta, '_index', lineNo) ?? pathIndex;
    const id = stringField(meta, '_id', lineNo);
    if (action === 'delete') {
      items.push({ action, index, id, record: invalidRecord(index, `${unsupportedActionPrefix}delete`) });
      continue;
    }
    if (i >= lines.length || (i === lines.length - 1 && lines[i] === '')) {
      throw new ValidationError(`The bulk request must be terminated by a newline [\\n]: line [${lineNo}] has no source line after it`);
    }
    const source = withoutCr(lines[i] as string);
    i++;
    if (action === 'update') {
      items.push({ action, index, id, record: invalidRecord(index, `${unsupportedActionPrefix}update`) });
    } else if (isBlank(source)) {
      items.push({ action, index, id, record: invalidRecord(index, `line ${i}: the source of a ${action} action is empty`) });
    } else {
      items.push({ action, index, id, record: eventRecord(index, source) });
    }
  }
  return items;
}

function readAction(line: string, lineNo: number): { action: BulkAction; meta: Record<string, unknown> } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ValidationError(`Malformed action/metadata line [${lineNo}], expected a JSON object`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(`Malformed action/metadata line [${lineNo}], expected START_OBJECT`);
  }
  const keys = Object.keys(value);
  const action = keys[0];
  if (keys.length !== 1 || (action !== 'index' && action !== 'create' && action !== 'update' && action !== 'delete')) {
    throw new ValidationError(`Malformed action/metadata line [${lineNo}], expected field [create], [delete], [index] or [update] but found [${keys.join('], [').slice(0, 100)}]`);
  }
  const meta = (value as Record<string, unknown>)[action];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    throw new ValidationError(`Malformed action/metadata line [${lineNo}], expected START_OBJECT after [${action}]`);
  }
  return { action, meta: meta as Record<string, unknown> };
}

function stringField(meta: Record<string, unknown>, key: string, lineNo: number): string | null {
  const value = meta[key];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && key === '_id') return String(value);
  throw new ValidationError(`Malformed action/metadata line [${lineNo}], [${key}] must be a string`);
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

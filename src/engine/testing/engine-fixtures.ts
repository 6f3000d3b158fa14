import { randomUUID } from 'node:crypto';
import type { EncodedEventRow, Engine, EventRowInput, StoredValue } from '../engine.js';
import { encodeEventRow } from '../encode-event-row.js';
import { timeExtentsOf } from '../time-extents.js';
import { sqlString } from '../../core/index.js';

/** A tenant no other test uses, so tests sharing one engine never see each other's rows. */
export function uniqueTenant(): string {
  return `t-${randomUUID()}`;
}

let nextSeq = 1n;

/** One event with sensible defaults; `attrs` is its JSON object, stored flattened (`flatAttrs`) and as its raw text. */
export function anEvent(overrides: Omit<Partial<EventRowInput>, 'attrs'> & { attrs?: Record<string, unknown> } = {}): EventRowInput {
  const { attrs, ...rest } = overrides;
  const attrsJson = attrs === undefined ? '{"message":"hello"}' : JSON.stringify(attrs);
  const searchText = attrs === undefined ? 'hello' : leafTexts(attrs).join('\u0000');
  return {
    tenant: 'acme',
    indexId: 'main',
    tsNs: 1_704_164_645_123_456_789n,
    seq: nextSeq++,
    sourceType: 'custom:generic',
    tsField: 'timestamp',
    rawJson: attrsJson,
    attrs: attrs === undefined ? { message: 'hello' } : flatAttrs(attrs),
    nullPaths: [],
    searchText,
    ...rest,
  };
}

/**
 * An object's string and number leaves by dotted path, as ingest flattens (which the engine
 * layer cannot import); fixtures are small, hold no arrays or nulls, and booleans become text.
 */
export function flatAttrs(value: Record<string, unknown>, prefix = '', out: Record<string, StoredValue> = {}): Record<string, StoredValue> {
  for (const [key, leaf] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof leaf === 'string' || typeof leaf === 'number') out[path] = leaf;
    else if (typeof leaf === 'boolean') out[path] = String(leaf);
    else if (leaf !== null && typeof leaf === 'object') flatAttrs(leaf as Record<string, unknown>, path, out);
  }
  return out;
}

// The string and number leaves of a fixture's attrs, like ingest's valuesText (which the engine
// layer cannot import); fixtures are small and never hold nulls in attrs.
function leafTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value).replace('e+', 'e')];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value as Record<string, unknown>).flatMap(leafTexts);
}

/** Encodes and inserts events in one batch. */
export async function insert(engine: Engine, events: readonly EventRowInput[]): Promise<void> {
  await engine.insertEvents({ rows: events.map((event) => encodeEventRow(event)), extents: timeExtentsOf(events) });
}

/** Encoded rows whose last one the engine cannot read (its first string claims 4 GiB). */
export function damaged(rows: readonly EncodedEventRow[]): EncodedEventRow[] {
  const last = rows.at(-1);
  if (last === undefined) return [];
  return [...rows.slice(0, -1), { ...last, head: Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), last.head]) }];
}

/**
 * Each event's values of `paths` as `{s, n}` (string, number), read from the slot its map gives
 * each path or from the rest maps: what the query compiler reads, written out plainly (every slot
 * read only for the lineages that put the path there).
 */
export async function storedValues(engine: Engine, tenant: string, paths: readonly string[], indexId = 'main'): Promise<{ s: string | null; n: number | null }[][]> {
  const layout = await engine.fieldLayout(tenant, [indexId]);
  const columns = paths.map((path, i) => {
    const uses = layout.slots.get(path) ?? [];
    const read = (kind: 'string' | 'number', rest: string) => {
      const slots = uses
        .filter((use) => use.kind === kind)
        .map((use) => `if(${use.mapRanges.map(([lo, hi]) => `field_map BETWEEN ${lo} AND ${hi}`).join(' OR ')}, ${use.column}, NULL)`);
      return `coalesce(${[...slots, rest].join(', ')})`;
    };
    return `${read('string', `rest_s[${sqlString(path)}]`)} AS v${i}_s, ${read('number', `rest_n[${sqlString(path)}]`)} AS v${i}_n`;
  });
  const result = await engine.query<Record<string, string | number | null>>(
    `SELECT ${columns.join(', ')} FROM logs WHERE tenant = ${sqlString(tenant)} AND idx = ${sqlString(indexId)} ORDER BY seq`,
  );
  return result.rows.map((row) => paths.map((_, i) => ({ s: row[`v${i}_s`] as string | null, n: row[`v${i}_n`] === null ? null : Number(row[`v${i}_n`]) })));
}

/** How many events a tenant (and optionally one index) holds. */
export async function countEvents(engine: Engine, tenant: string, indexId?: string): Promise<number> {
  const where = indexId === undefined ? '' : ` AND idx = ${sqlString(indexId)}`;
  const result = await engine.query<{ n: string }>(`SELECT count() AS n FROM logs WHERE tenant = ${sqlString(tenant)}${where}`);
  return Number(result.rows[0]?.n);
}

/** A query that runs for minutes unless stopped: it scans an endless numbers() table. */
export const slowQuery = 'SELECT count() AS n FROM numbers(1000000000000) WHERE sipHash64(number) % 7 = 3';

/** Retries an assertion until it passes or the deadline passes (then its last failure is thrown). */
export async function eventually(assertion: () => Promise<void>, deadlineMs = 10_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Nanoseconds since the epoch of an ISO timestamp with up to nine fraction digits. */
export function ns(iso: string): bigint {
  const match = /^(.*?)(?:\.(\d{1,9}))?Z$/.exec(iso);
  if (!match) throw new Error(`not an ISO timestamp: ${iso}`);
  const seconds = BigInt(Date.parse(`${match[1]}Z`)) / 1000n;
  return seconds * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

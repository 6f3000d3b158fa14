import { randomUUID } from 'node:crypto';
import type { Engine, EventRowInput } from '../engine.js';
import { timeExtentsOf } from '../time-extents.js';
import { sqlString } from '../../core/index.js';

/** A tenant no other test uses, so tests sharing one engine never see each other's rows. */
export function uniqueTenant(): string {
  return `t-${randomUUID()}`;
}

let nextSeq = 1n;

/** One event with sensible defaults; `attrs` is serialized as given. */
export function anEvent(overrides: Partial<EventRowInput> & { attrs?: Record<string, unknown> } = {}): EventRowInput {
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
    attrsJson,
    nullPaths: [],
    searchText,
    ...rest,
  };
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
  await engine.insertEvents({ rows: events.map((event) => engine.encodeEventRow(event)), extents: timeExtentsOf(events) });
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

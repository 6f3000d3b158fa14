/**
 * `npx tsx src/ingest/testing/measure-throughput.ts [file.ndjson.gz] [maxLines]`: measures the
 * JavaScript side of ingest on a real dataset, with a stand-in encoder shaped like the engine's
 * and an insert that does nothing, so the figures exclude the engine.
 *
 * - pure JS: parse + flatten + timestamp + encode over lines already in memory;
 * - stream: `ingestStream` from the gzip file (adds gunzip, UTF-8 decoding, line splitting, batching).
 *
 * A script, not a test: timings never belong in unit tests.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { systemClock } from '../../core/index.js';
import { FieldPathIds, SlabEventEncoder } from '../../engine/index.js';
import { IngestRowEncoder } from '../ingest-row-encoder.js';
import { ingestStream } from '../ingest-stream.js';
import { defaultTimestampFields } from '../ingest-types.js';
import { isJsonObject, parseJsonText } from '../parse-json-text.js';

const file = process.argv[2] ?? new URL('../../../../shared/datasets/windows/otrf-windows-atomic-host.ndjson.gz', import.meta.url).pathname;
const maxLines = Number(process.argv[3] ?? Number.POSITIVE_INFINITY);

async function readLines(): Promise<string[]> {
  const lines: string[] = [];
  const input = createReadStream(file).pipe(createGunzip());
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line !== '') lines.push(line);
    if (lines.length >= maxLines) break;
  }
  input.destroy();
  return lines;
}

function pureJs(lines: readonly string[]): { events: number; ms: number; chars: number } {
  const start = performance.now();
  let chars = 0;
  const rows = new IngestRowEncoder({ eventEncoder: () => new SlabEventEncoder() }, new FieldPathIds(), defaultTimestampFields, systemClock);
  for (const line of lines) {
    const parsed = parseJsonText(line);
    if (!parsed.ok || !isJsonObject(parsed.value)) continue;
    chars += rows.event(parsed.value, line).head.length;
  }
  return { events: lines.length, ms: performance.now() - start, chars };
}

async function stream(): Promise<{ events: number; ms: number; bytes: number }> {
  let next = 0n;
  const start = performance.now();
  const summary = await ingestStream(
    createReadStream(file, { highWaterMark: 1 << 20 }),
    { tenantId: 't', indexId: 'i', timestampFields: defaultTimestampFields, sourceType: 'custom:generic' },
    {
      engine: { eventEncoder: () => new SlabEventEncoder(), insertEvents: async (batch) => ({ rows: batch.rows.length }) },
      reserveSequence: async (count) => {
        const first = next;
        next += BigInt(count);
        return first;
      },
      clock: systemClock,
    },
  );
  return { events: summary.ingested, ms: performance.now() - start, bytes: summary.bytes };
}

const rate = (events: number, ms: number): string => `${Math.round((events / ms) * 1000).toLocaleString('en')} events/s`;

// the streaming run goes first, while the heap is fresh; the in-memory lines come after
if (maxLines === Number.POSITIVE_INFINITY) {
  const s = await stream();
  console.log(`stream    ${s.events} events, ${(s.bytes / 1e6).toFixed(0)} MB decoded, in ${s.ms.toFixed(0)} ms: ${rate(s.events, s.ms)}`);
}
const lines = await readLines();
pureJs(lines.slice(0, 20_000)); // warm up the JIT
const js = pureJs(lines);
console.log(`pure JS   ${js.events} events in ${js.ms.toFixed(0)} ms: ${rate(js.events, js.ms)}`);

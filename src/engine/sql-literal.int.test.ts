import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChdbEngine } from './chdb/chdb-engine.js';
import { sqlIdentifier, sqlInteger, sqlString, toWellFormed } from '../core/index.js';

// The literal functions are the only thing between user input and SQL text, so they are
// checked against the real parser: whatever goes in must come back out unchanged.
const path = mkdtempSync(join(tmpdir(), 'vigil-sql-literal-'));
const engine = new ChdbEngine({ path, poolSize: 2 });

beforeAll(async () => {
  await engine.ping();
});

afterAll(async () => {
  await engine.close();
  rmSync(path, { recursive: true, force: true });
});

// Code points that matter to a lexer, mixed with arbitrary unicode.
const tricky = fc.constantFrom('\\', "'", '`', '"', '\n', '\r', '\t', '\u0000', '\u007f', '?', '{', '}', ':', '--', '/*', '%', 'é', '😀');
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.oneof(tricky, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 40 }),
);

describe('sql literals against the engine', () => {
  it('SELECT sqlString(s) returns exactly s', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (value) => {
        const result = await engine.query<{ v: string }>(`SELECT ${sqlString(value)} AS v`);
        expect(result.rows).toEqual([{ v: value }]);
      }),
      { numRuns: 300 },
    );
  });

  it('lone surrogates come back as U+FFFD, everything else unchanged', async () => {
    const utf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(utf16, async (value) => {
        const result = await engine.query<{ v: string }>(`SELECT ${sqlString(value)} AS v`);
        expect(result.rows).toEqual([{ v: toWellFormed(value) }]);
      }),
      { numRuns: 100 },
    );
  });

  it('sqlIdentifier(name) names a column exactly name', async () => {
    await fc.assert(
      fc.asyncProperty(
        text.filter((name) => name.length > 0),
        async (name) => {
          const result = await engine.query(`SELECT 1 AS ${sqlIdentifier(name)}`);
          expect(result.columns).toEqual([name]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('sqlInteger(n) reads back as n across the Int64 and UInt64 ranges', async () => {
    const integer = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }), fc.constantFrom(-(2n ** 63n), 2n ** 64n - 1n, 0n, -1n));
    await fc.assert(
      fc.asyncProperty(integer, async (value) => {
        const result = await engine.query<{ v: string }>(`SELECT toString(${sqlInteger(value)}) AS v, 0-${sqlInteger(value)} AS w`);
        expect(result.rows[0]?.v).toBe(value.toString());
      }),
      { numRuns: 100 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { EngineError, sqlString } from '../../core/index.js';
import type { Engine, EventAnswer } from '../engine.js';
import { anEvent, insert, uniqueTenant } from './engine-fixtures.js';

const columns = ['row_seq', 'row_raw'] as const;
const selectOf = (tenant: string): string => `SELECT toString(seq) AS row_seq, raw AS row_raw FROM logs WHERE tenant = ${sqlString(tenant)} ORDER BY seq`;

/** Event answers (`queryEvents`): stored raw JSON comes back parsed, verbatim, with statistics. */
export function describeEventAnswerContract(engine: () => Engine): void {
  describe('event answers', () => {
    it('hands the parser each stored raw text verbatim, unescaped, and maps the rows by column', async () => {
      const tenant = uniqueTenant();
      const raws = ['{ "msg" :\t"héllo \\"wörld\\"",\n "n": -9223372036854775808 }', '{"emoji":"\\ud83d\\ude00 😀","nested":{"a":[1,2.5,null,true]}}'];
      await insert(
        engine(),
        raws.map((rawJson, i) => anEvent({ tenant, seq: BigInt(i + 1), rawJson })),
      );
      const seen: string[] = [];
      // A parser of the caller's: here one that keeps the long integer's digits, as ingest's does.
      const answer: EventAnswer = {
        columns,
        rawColumn: 'row_raw',
        parseJson: (text) => (seen.push(text), JSON.parse(text.replace('-9223372036854775808', '"-9223372036854775808"'))),
      };
      const result = await engine().queryEvents<Record<string, unknown>>(selectOf(tenant), answer);
      expect(seen).toHaveLength(1);
      for (const raw of raws) expect(seen[0]).toContain(raw);
      expect(result.columns).toEqual(columns);
      expect(result.rows).toEqual([
        { row_seq: '1', row_raw: { msg: 'héllo "wörld"', n: '-9223372036854775808' } },
        { row_seq: '2', row_raw: { emoji: '😀 😀', nested: { a: [1, 2.5, null, true] } } },
      ]);
      expect(result.stats.rowsRead).toBeGreaterThanOrEqual(2);
      expect(result.stats.bytesRead).toBeGreaterThan(0);
    });

    it('answers no rows as an empty result', async () => {
      const answer: EventAnswer = { columns, rawColumn: 'row_raw', parseJson: JSON.parse };
      const result = await engine().queryEvents(selectOf(uniqueTenant()), answer);
      expect(result.rows).toEqual([]);
    });

    it('reads a raw text that is not JSON apart from the others, as text', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, seq: 1n, rawJson: '{"ok":1}' }), anEvent({ tenant, seq: 2n, rawJson: 'plain words' })]);
      const answer: EventAnswer = { columns, rawColumn: 'row_raw', parseJson: JSON.parse };
      const result = await engine().queryEvents<Record<string, unknown>>(selectOf(tenant), answer);
      expect(result.rows).toEqual([
        { row_seq: '1', row_raw: '{"ok":1}' },
        { row_seq: '2', row_raw: 'plain words' },
      ]);
    });

    it('refuses a column name it cannot place in the answer format', async () => {
      const answer: EventAnswer = { columns: ['row_seq', 'bad name'], rawColumn: 'row_seq', parseJson: JSON.parse };
      await expect(engine().queryEvents('SELECT 1 AS row_seq', answer)).rejects.toBeInstanceOf(EngineError);
    });
  });
}

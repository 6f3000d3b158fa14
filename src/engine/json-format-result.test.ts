import { describe, expect, it } from 'vitest';
import { EngineError } from '../core/index.js';
import { parseJsonCompactResult } from './json-format-result.js';

describe('parseJsonCompactResult', () => {
  it('takes rows as objects, column names and the statistics of a FORMAT JSONCompact answer', () => {
    const text = JSON.stringify({
      meta: [
        { name: 'n', type: 'UInt64' },
        { name: 's', type: 'Nullable(String)' },
      ],
      data: [
        ['1', 'a'],
        ['2', null],
      ],
      rows: 2,
      statistics: { elapsed: 0.0125, rows_read: 10, bytes_read: 80 },
    });
    expect(parseJsonCompactResult(text)).toEqual({
      rows: [
        { n: '1', s: 'a' },
        { n: '2', s: null },
      ],
      columns: ['n', 's'],
      stats: { rowsRead: 10, bytesRead: 80, elapsedMs: 12.5 },
    });
  });

  it('keeps a column named __proto__ as a key, as FORMAT JSON rows had it', () => {
    const text = JSON.stringify({ meta: [{ name: '__proto__' }, { name: 'x' }], data: [['p', 1]] });
    const [row] = parseJsonCompactResult<Record<string, unknown>>(text).rows;
    expect(Object.keys(row!)).toEqual(['__proto__', 'x']);
    expect(row!['__proto__']).toBe('p');
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it('reads an empty answer as no rows', () => {
    expect(parseJsonCompactResult('')).toEqual({ rows: [], columns: [], stats: { rowsRead: 0, bytesRead: 0, elapsedMs: 0 } });
  });

  it('refuses text that is not a JSON answer', () => {
    expect(() => parseJsonCompactResult('{"meta"')).toThrow(EngineError);
  });
});

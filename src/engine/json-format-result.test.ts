import { describe, expect, it } from 'vitest';
import { EngineError } from '../core/index.js';
import { parseJsonFormatResult } from './json-format-result.js';

describe('parseJsonFormatResult', () => {
  it('takes rows, column names and the statistics of a FORMAT JSON answer', () => {
    const text = JSON.stringify({
      meta: [{ name: 'n', type: 'UInt64' }, { name: 's', type: 'String' }],
      data: [{ n: '1', s: 'a' }],
      rows: 1,
      statistics: { elapsed: 0.0125, rows_read: 10, bytes_read: 80 },
    });
    expect(parseJsonFormatResult(text)).toEqual({
      rows: [{ n: '1', s: 'a' }],
      columns: ['n', 's'],
      stats: { rowsRead: 10, bytesRead: 80, elapsedMs: 12.5 },
    });
  });

  it('reads an empty answer as no rows', () => {
    expect(parseJsonFormatResult('')).toEqual({ rows: [], columns: [], stats: { rowsRead: 0, bytesRead: 0, elapsedMs: 0 } });
  });

  it('refuses text that is not a JSON answer', () => {
    expect(() => parseJsonFormatResult('{"meta"')).toThrow(EngineError);
  });
});

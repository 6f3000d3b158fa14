import { describe, expect, it } from 'vitest';
import { toCsv, toNdjson } from './export-rows.js';

describe('exporting the table', () => {
  it('writes CSV with a header, quoting what needs it', () => {
    const csv = toCsv(['a', 'b'], [{ a: 'x,y', b: 1 }, { a: 'say "hi"', b: null }, { a: 'line\nbreak' }]);
    expect(csv).toBe('a,b\r\n"x,y",1\r\n"say ""hi""",\r\n"line\nbreak",\r\n');
  });

  it('defuses spreadsheet formulas but keeps negative numbers and @-column names', () => {
    expect(toCsv(['a'], [{ a: '=HYPERLINK("x")' }, { a: '-5' }, { a: -5 }, { a: '@SUM(A1)' }])).toBe('a\r\n"\'=HYPERLINK(""x"")"\r\n-5\r\n-5\r\n\'@SUM(A1)\r\n');
    expect(toCsv(['@svc.datetime', '=cmd'], [])).toBe("@svc.datetime,'=cmd\r\n");
  });

  it('writes NDJSON in column order, one row a line', () => {
    expect(toNdjson(['b', 'a'], [{ a: 1, b: 'x' }, { a: null }])).toBe('{"b":"x","a":1}\n{"a":null}\n');
  });
});

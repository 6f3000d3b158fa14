import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/index.js';
import { readLookupCsv } from './lookup-csv.js';

describe('readLookupCsv', () => {
  it('reads the header and rows, quoted fields, doubled quotes, line breaks in quotes, CRLF and a BOM', () => {
    const text = '\uFEFFindicator, provider ,note\r\n1.2.3.4,otx,"a,b"\r\n"5.6.7.8",feodo,"say ""hi""\nthen go"\n\n,,\n';
    expect(readLookupCsv(text)).toEqual({
      columns: ['indicator', 'provider', 'note'],
      rows: [
        ['1.2.3.4', 'otx', 'a,b'],
        ['5.6.7.8', 'feodo', 'say "hi"\nthen go'],
        ['', '', ''],
      ],
    });
  });

  it('takes a last line without a line break, and a header alone as an empty table', () => {
    expect(readLookupCsv('a,b\n1,2')).toEqual({ columns: ['a', 'b'], rows: [['1', '2']] });
    expect(readLookupCsv('a\n')).toEqual({ columns: ['a'], rows: [] });
  });

  it('reports every problem with its line: a short row, an unnamed or repeated column, an unclosed quote', () => {
    const error = (() => {
      try {
        readLookupCsv('a,,a\n1,2,3\n1,2\n"x,2,3\n');
      } catch (e) {
        return e as ValidationError;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.field).toBe('file');
    // Problems of the file's structure come first, then those of its columns and rows.
    expect(error.diagnostics.map((d) => d.message)).toEqual([
      'line 4: a quoted field is never closed',
      'line 1: column 2 has no name',
      'line 1: column "a" is named twice',
      'line 3: 2 fields where the header has 3',
      'line 4: 1 fields where the header has 3',
    ]);
    expect(error.message).toBe('invalid lookup table: line 4: a quoted field is never closed and 4 more problems');
  });

  it('refuses an empty file', () => {
    expect(() => readLookupCsv('')).toThrow('the file is empty: its first line must name the columns');
    expect(() => readLookupCsv('\n\n')).toThrow('the file is empty');
  });

  it('refuses text after a closing quote', () => {
    expect(() => readLookupCsv('a\n"x"y\n')).toThrow('line 2: text after the closing quote of a field');
  });
});

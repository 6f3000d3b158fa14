import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow } from '../parser/parser.js';
import type { EvalTable } from './eval-table.js';
import type { LookupTableData } from './evaluate-lookup.js';
import { evaluateQuery } from './evaluate-query.js';
import { events } from './testing/event-builder.js';

const badIps: LookupTableData = {
  columns: ['indicator', 'provider', 'note'],
  rows: [
    ['1.2.3.4', 'otx', 'scanner'],
    ['404', 'codes', ''],
    ['1.2.3.4', 'dup', 'second row'],
    ['', 'empty', 'key'],
    ['1e21', 'big', 'number'],
  ],
};
const tables = new Map([['bad_ips', badIps]]);
const list = events(
  { src: '1.2.3.4', user: 'alice' },
  { src: 404, user: 'bob' },
  { src: '9.9.9.9', user: 'carol' },
  { user: 'dave' },
  { src: null, user: 'erin' },
  { src: '', user: 'frank' },
  { src: 1e21, user: 'grace' },
  { src: '404.0', user: 'heidi' },
);
const run = (text: string): EvalTable => evaluateQuery(parseQueryOrThrow(text), list, tables);
const cells = (t: EvalTable, ...names: string[]) => t.rows.map((row) => names.map((n) => row[n] ?? null));

describe('lookup', () => {
  it('writes every non-key column of the first row whose key is the text of the field; null when none is (rows oldest first)', () => {
    expect(cells(run('* | lookup bad_ips indicator as src'), 'user', 'provider', 'note')).toEqual([
      ['alice', 'otx', 'scanner'], // the first row of a key wins
      ['bob', 'codes', ''], // the number 404 reads as '404'; an empty cell is an empty string
      ['carol', null, null],
      ['dave', null, null], // nor does a missing field
      ['erin', null, null], // null matches nothing
      ['frank', 'empty', 'key'], // an empty string is a key like any other
      ['grace', 'big', 'number'], // a number reads as its text (docs: `1e21`)
      ['heidi', null, null], // the whole text, not the number: '404.0' is not '404'
    ]);
  });

  it('reads the field of the key name without as, and writes only the outputs named, under their new names', () => {
    const result = evaluateQuery(parseQueryOrThrow('* | lookup bad_ips indicator output provider as feed'), events({ indicator: '404', note: 'kept' }), tables);
    expect(result.rows).toEqual([expect.objectContaining({ indicator: '404', feed: 'codes', note: 'kept' })]);
    expect(result.rows[0]).not.toHaveProperty('provider');
  });

  it('replaces a column of the same name, in place in a table, and appends new ones', () => {
    const result = run('* | table(user, provider, src) | lookup bad_ips indicator as src output provider, note as user');
    expect(result.columns).toEqual(['user', 'provider', 'src']);
    expect(cells(result, 'user', 'provider').slice(0, 3)).toEqual([
      ['scanner', 'otx'],
      ['', 'codes'],
      [null, null],
    ]);
    const appended = run('* | table(src) | lookup bad_ips indicator as src');
    expect(appended.columns).toEqual(['src', 'provider', 'note']);
  });

  it('works after aggregations, on their output columns', () => {
    const result = run('* | groupbycount src | lookup bad_ips indicator as src output provider');
    expect(result.columns).toEqual(['src', '@q.count', 'provider']);
    expect(result.rows.find((r) => r.src === 404)).toEqual({ src: 404, '@q.count': 1, provider: 'codes' });
  });

  it('what it writes feeds where, eval and stats', () => {
    const result = run('* | lookup bad_ips indicator as src | where provider = otx or provider = codes | eval tag = concat(provider, ":", user) | table(tag)');
    expect(result.rows).toEqual([{ tag: 'otx:alice' }, { tag: 'codes:bob' }]);
  });

  it('refuses a table it was not given, as the analyzer does', () => {
    expect(() => evaluateQuery(parseQueryOrThrow('* | lookup nope x'), list, tables)).toThrow(/unknown lookup table 'nope'/);
  });
});

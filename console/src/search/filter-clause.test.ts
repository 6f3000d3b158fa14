import { describe, expect, it } from 'vitest';
import { addFilterClause, valueTerm } from './filter-clause.js';

describe('clicking a value to filter', () => {
  it('adds field = value to the filter', () => {
    expect(addFilterClause('', 'user', 'bob', false)).toBe('user = "bob"');
    expect(addFilterClause('error', 'status', 500, false)).toBe('error status = 500');
    expect(addFilterClause('error', 'status', 500, true)).toBe('error not status = 500');
  });

  it('puts the clause before the pipeline', () => {
    expect(addFilterClause('error | groupbycount(user)', 'host', 'web-1', false)).toBe('error host = "web-1" | groupbycount(user)');
    expect(addFilterClause('| count', 'host', 'a', false)).toBe('host = "a" | count');
  });

  it('narrows every alternative of a filter with or', () => {
    expect(addFilterClause('a or b', 'user', 'x', false)).toBe('(a or b) user = "x"');
  });

  it('does not let a comment swallow the clause', () => {
    expect(addFilterClause('error # noisy', 'user', 'x', false)).toBe('error # noisy\nuser = "x"');
    expect(addFilterClause('a or b # c', 'user', 'x', false)).toBe('(a or b # c\n) user = "x"');
  });

  it('quotes odd column names in backticks', () => {
    expect(addFilterClause('', 'user name', 'x', false)).toBe('`user name` = "x"');
    expect(addFilterClause('', 'tags[0]', 'x', false)).toBe('tags[0] = "x"');
    expect(addFilterClause('', '@svc.source_type', 'x', false)).toBe('@svc.source_type = "x"');
  });

  it('escapes what a double-quoted term gives meaning to', () => {
    expect(valueTerm('say "hi" *now* \\ \n\ttab')).toBe('"say \\"hi\\" \\*now\\* \\\\ \\n\\ttab"');
    expect(valueTerm('\u0001')).toBe('"\\u{1}"');
    expect(valueTerm(1.5)).toBe('1.5');
  });
});

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../parser.js';
import { needsFieldCatalog } from './analyze-query.js';

const needs = (text: string): boolean => {
  const parsed = parseQuery(text);
  if (parsed.query === null) throw new Error(`does not parse: ${text}`);
  return needsFieldCatalog(parsed.query);
};

describe('needsFieldCatalog', () => {
  it.each([
    ['free text and plain columns', 'failed password user: root eventName = ConsoleLogin', false],
    ['a pipeline over plain columns', 'eventName: x | where n > 1 | groupbycount(user) | where @q.count > 2', false],
    ['eval and table of plain columns', 'x | eval(y = a + 1) | table(y, b)', false],
    ['a column wildcard in the filter', 'id.*: 10.0.0.1', true],
    ['every column', '**: secret', true],
    ['a column wildcard in a where over events', 'x | where user*: root', true],
  ])('%s', (_, text, expected) => {
    expect(needs(text)).toBe(expected);
  });
});

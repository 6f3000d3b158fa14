import { describe, expect, it } from 'vitest';
import { parseQuery } from '../parser/parser.js';
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
    ['a number in canonical text', 'status 200 1e21', false],
    ['a number in other than canonical text: compared column by column', '200.0', true],
    ['free text in a where: searches the stage columns, stored ones included', 'x | eval(y = 1) | where root', true],
  ])('%s', (_, text, expected) => {
    expect(needs(text)).toBe(expected);
  });
});

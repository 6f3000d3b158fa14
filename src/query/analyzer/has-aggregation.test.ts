import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow } from '../parser/parser.js';
import { hasAggregation } from './analyze-query.js';

describe('hasAggregation', () => {
  it.each([
    ['an event filter', 'user: root', false],
    ['row-wise commands, head and tail', 'x | eval(y = 1) | where y > 0 | table(y) | rename(y as z) | head 5 | tail 2', false],
    ['count', 'x | count', true],
    ['an aggregation function as a command', 'x | percentile(99, n)', true],
    ['groupbycount', 'x | groupbycount user', true],
    ['stats after other commands', 'x | eval(y = 1) | stats countdistinct(y) by user', true],
  ])('%s', (_, text, expected) => {
    expect(hasAggregation(parseQueryOrThrow(text))).toBe(expected);
  });
});

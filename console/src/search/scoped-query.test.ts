import { describe, expect, it } from 'vitest';
import { firstPipe, offsetOf, scopeToIndex } from './scoped-query.js';

describe('a search limited to one index', () => {
  it("sends every index's query as typed", () => {
    expect(scopeToIndex('a | count', null).text).toBe('a | count');
  });

  it('wraps the filter and keeps the pipeline after it', () => {
    expect(scopeToIndex('user: bob or user: eve | groupbycount(user)', 'okta').text).toBe('@index=okta (user: bob or user: eve \n) | groupbycount(user)');
    expect(scopeToIndex('admin', 'web-logs').text).toBe('@index=web-logs (admin\n) ');
  });

  it('puts the selector alone before a query that is only a pipeline or empty', () => {
    expect(scopeToIndex('| stats count()', 'okta').text).toBe('@index=okta | stats count()');
    expect(scopeToIndex('', 'okta').text).toBe('@index=okta ');
  });

  it('quotes index names that are not bare words', () => {
    expect(scopeToIndex('x', 'my logs').text).toBe('@index="my logs" (x\n) ');
    expect(scopeToIndex('x', 'or').text).toBe('@index="or" (x\n) ');
  });

  it('closes the parenthesis on its own line, after a trailing comment', () => {
    expect(scopeToIndex('admin # who', 'a').text).toBe('@index=a (admin # who\n) ');
  });

  it('finds the pipeline outside quotes, backticks, comments and braces', () => {
    expect(firstPipe('msg: "a|b" | count')).toBe(11);
    expect(firstPipe("msg: 'a\\'|' | count")).toBe(12);
    expect(firstPipe('`a|b`: x | count')).toBe(9);
    expect(firstPipe('x # a | b\n| count')).toBe(10);
    expect(firstPipe('@index={1234 | "web"} x')).toBe(-1);
    expect(firstPipe('x')).toBe(-1);
  });

  it("carries positions the server reports back to the user's text", () => {
    // Characters that occur once in the sent text can be found there; each must map back to where the user typed it.
    const user = 'ABC >= \n  D:E | FGH(IJ) by KL';
    const scoped = scopeToIndex(user, 'web');
    let checked = 0;
    for (let offset = 0; offset < user.length; offset++) {
      const char = user[offset]!;
      const sentOffset = scoped.text.indexOf(char);
      if (sentOffset === -1 || scoped.text.indexOf(char, sentOffset + 1) !== -1) continue;
      const before = scoped.text.slice(0, sentOffset);
      const line = before.split('\n').length;
      const column = sentOffset - before.lastIndexOf('\n');
      expect(scoped.toUserOffset(line, column)).toBe(offset);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('maps the error at "stats count(" in the sent text to the same characters the user typed', () => {
    const user = 'status >= 500 | stats count( by path';
    const scoped = scopeToIndex(user, 'web');
    const sentAt = scoped.text.indexOf('count(');
    const lines = scoped.text.slice(0, sentAt).split('\n');
    expect(scoped.toUserOffset(lines.length, lines.at(-1)!.length + 1)).toBe(user.indexOf('count('));
  });

  it("points into the inserted text at the nearest character of the user's", () => {
    const scoped = scopeToIndex('a (', 'web'); // "'(' is never closed" may point at the added ')'
    const lines = scoped.text.split('\n');
    expect(scoped.toUserOffset(lines.length, 1)).toBe(3);
    expect(scoped.toUserOffset(1, 1)).toBe(0); // inside the selector
  });

  it('reads 1-based lines and columns, clamped to the text', () => {
    expect(offsetOf('ab\ncd', 2, 2)).toBe(4);
    expect(offsetOf('ab\ncd', 1, 9)).toBe(2);
    expect(offsetOf('ab\ncd', 7, 1)).toBe(5);
  });
});

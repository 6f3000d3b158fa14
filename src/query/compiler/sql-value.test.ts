import { describe, expect, it } from 'vitest';
import { attrsValue, missingValue, nullNumber, nullString } from './sql-value.js';

describe('attrsValue', () => {
  const every = {
    s: 'attrs.`user.id`.:String',
    n: 'coalesce(toFloat64(attrs.`user.id`.:Int64), attrs.`user.id`.:Float64)',
    exists: "(isNotNull(attrs.`user.id`) OR has(null_paths, 'user.id'))",
  };

  it('reads every variant when the types are unknown, and the same when the catalog lists them all', () => {
    expect(attrsValue('user.id')).toEqual(every);
    expect(attrsValue('user.id', ['Float64', 'Int64', 'Null', 'String'])).toEqual(every);
  });

  it('reads only the variants the catalog lists', () => {
    expect(attrsValue('user.id', ['String'])).toEqual({ s: every.s, n: nullNumber, exists: 'isNotNull(attrs.`user.id`)' });
    expect(attrsValue('user.id', ['Int64']).n).toBe('toFloat64(attrs.`user.id`.:Int64)');
    expect(attrsValue('user.id', ['Float64']).n).toBe('attrs.`user.id`.:Float64');
    expect(attrsValue('user.id', ['Float64', 'Int64']).s).toBe(nullString);
  });

  it('tests null_paths only for a path that held null, and a path with values only as null', () => {
    expect(attrsValue('user.id', ['Null'])).toEqual({ s: nullString, n: nullNumber, exists: "has(null_paths, 'user.id')" });
  });

  it('reads a path the catalog does not hold as a missing column', () => {
    expect(attrsValue('user.id', [])).toEqual(missingValue);
  });

  it('counts a type ingest does not write as a stored value: it exists, though neither a string nor a number', () => {
    expect(attrsValue('user.id', ['Bool'])).toEqual({ s: nullString, n: nullNumber, exists: 'isNotNull(attrs.`user.id`)' });
  });
});

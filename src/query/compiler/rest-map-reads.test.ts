import { describe, expect, it } from 'vitest';
import { nullCheck, presenceLookup } from './rest-map-reads.js';
import { nullNumber, type SqlValue } from './sql-value.js';

// Values as storedValue builds them (sql-value.test.ts): strings in a slot, numbers in rest_n.
const slotStringsRestNumbers: SqlValue = {
  s: 's3',
  n: "rest_n['user']",
  exists: "has(field_paths, 'user')",
  present: { lookup: "has(field_paths, 'user')", strings: false, numbers: true },
};
const restStrings: SqlValue = {
  s: "coalesce(s9, rest_s['host'])",
  n: nullNumber,
  exists: "has(field_paths, 'host')",
  present: { lookup: "has(field_paths, 'host')", strings: true, numbers: false },
};
const slotOnly: SqlValue = { s: 's3', n: nullNumber, exists: 'isNotNull(s3)' };

describe('nullCheck', () => {
  it('checks what the test reads when a part it reads is in a rest map', () => {
    expect(nullCheck(restStrings, { strings: true, numbers: false })).toBe("isNotNull(coalesce(s9, rest_s['host']))");
    // The slot's strings are read too, so they are checked with the numbers.
    expect(nullCheck(slotStringsRestNumbers, { strings: true, numbers: true })).toBe("(isNotNull(s3) OR isNotNull(rest_n['user']))");
    expect(nullCheck(slotStringsRestNumbers, { strings: false, numbers: true })).toBe("isNotNull(rest_n['user'])");
  });

  it('leaves out parts known to be null, and has nothing to say where no rest map is read', () => {
    expect(nullCheck(restStrings, { strings: true, numbers: true })).toBe("isNotNull(coalesce(s9, rest_s['host']))");
    expect(nullCheck(slotStringsRestNumbers, { strings: true, numbers: false })).toBeUndefined();
    expect(nullCheck(slotOnly, { strings: true, numbers: true })).toBeUndefined();
  });
});

describe('presenceLookup', () => {
  it('is the field_paths lookup exactly where the null check would read a rest map', () => {
    expect(presenceLookup(slotStringsRestNumbers, { strings: false, numbers: true })).toBe("has(field_paths, 'user')");
    expect(presenceLookup(slotStringsRestNumbers, { strings: true, numbers: false })).toBeUndefined();
    expect(presenceLookup(slotOnly, { strings: true, numbers: true })).toBeUndefined();
  });
});

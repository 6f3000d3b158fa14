/**
 * Random log events for the query oracle tests: nested objects, arrays, numbers, nulls,
 * booleans, mixed letter case, separators, IP addresses and non-ASCII text, drawn from small
 * vocabularies so that random queries hit them often.
 */
import fc from 'fast-check';

/** Top-level keys; `x.y` is a literal dotted key (D3: the same column as nested x → y). */
export const eventKeys = ['user', 'User', 'name', 'msg', 'ip', 'status', 'a', 'b', 'tags', 'x.y', 'req'] as const;
export const nestedKeys = ['id', 'arn', 'type', 'y', 'z'] as const;

/** Words and pieces that values are made of; queries draw their terms from the same list. */
export const words = [
  'admin',
  'Admin',
  'ADMIN',
  'user_admin_backup',
  'user-admin-backup',
  'app',
  'app-3',
  'QueryWorker',
  'scnr-QueryWorker-95a7410[$LATEST]',
  'error',
  '/var/log/application/error.log',
  'héllo',
  'HÉLLO',
  'École',
  'son',
  'johnson',
  'jackson',
  'andrew',
  'foo',
  'bar',
  'K',
  'k',
  '\u212a',
  '10',
  '200',
  '1.5',
  'e42',
  '192.168.1.100',
  '10.0.0.1',
  'a b',
  'a-b',
  '*',
  '😀',
  '',
] as const;

export const separators = [' ', '-', '.', '/', ':', '_', '=', ', ', '\n', '\t', '"', "'", '\\'] as const;

/** Numbers stored in events; queries compare against the same ones. */
export const numbers = [0, 1, 5, 10, 42, 200, 200.5, -3, 1.5, 0.1, 1e21, 1e-7, 123456789, 9007199254740991, -9007199254740991] as const;

/**
 * Integers beyond 2^53 as ingest stores them (D3: digit strings), around ±2^53, ±2^63, 2^64 and
 * beyond, and decimal strings spelled unusually: what `< <= > >=` must compare exactly (D17).
 */
export const numericTexts = [
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551615',
  '18446744073709551616',
  '12345678901234567890',
  '123456789012345678901234567890',
  '9007199254740993.0',
  '0012.50',
  '1e20',
  '-0.0',
] as const;

/**
 * Number literals for queries besides `numbers`: the same big integers as written in a query, and
 * bounds a double cannot hold (Float64 would round them onto the stored values).
 */
export const numberLiterals = [
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740992',
  '-9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '12345678901234567890',
  '12345678901234567891',
  '1e20',
  '9007199254740992.5',
  '0.10000000000000000001',
] as const;

const word = fc.constantFrom(...words);
const separator = fc.constantFrom(...separators);

/** A string value: one to four words joined by separators. */
export const arbitraryText: fc.Arbitrary<string> = fc
  .tuple(word, fc.array(fc.tuple(separator, word), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.map(([sep, w]) => sep + w).join(''));

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: arbitraryText },
  { weight: 3, arbitrary: fc.constantFrom(...numbers) },
  { weight: 1, arbitrary: fc.constantFrom(...numericTexts) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
);

const nested: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...nestedKeys), leaf, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.dictionary(fc.constantFrom(...nestedKeys), leaf, { maxKeys: 2 }), { maxLength: 2 }) },
);

/** One event: a JSON object with some of the keys. */
export const arbitraryEvent: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(fc.constantFrom(...eventKeys), nested, {
  minKeys: 0,
  maxKeys: 6,
});

/** Every column name a generated event can have (for query generators). */
export function possibleColumns(): string[] {
  const columns = new Set<string>();
  for (const key of eventKeys) {
    columns.add(key);
    for (const sub of nestedKeys) columns.add(`${key}.${sub}`);
    for (let i = 0; i < 3; i++) {
      columns.add(`${key}[${i}]`);
      for (const sub of nestedKeys) columns.add(`${key}[${i}].${sub}`);
    }
  }
  return [...columns];
}

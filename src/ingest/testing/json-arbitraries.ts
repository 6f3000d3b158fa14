import fc from 'fast-check';

/** JSON text with one character deleted, duplicated or replaced by a JSON-significant one. */
export function mutated(text: string): fc.Arbitrary<string> {
  const significant = fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '-', '.', 'e', '0', '1', ' ', '\n', '\t', 'n', 't');
  return fc.tuple(fc.nat({ max: Math.max(0, text.length) }), fc.integer({ min: 0, max: 2 }), significant).map(([at, kind, ch]) => {
    if (kind === 0) return text.slice(0, at) + text.slice(at + 1);
    if (kind === 1) return text.slice(0, at) + text.charAt(at) + text.slice(at);
    return text.slice(0, at) + ch + text.slice(at + 1);
  });
}

/** True when `JSON.parse` accepts the text. */
export function acceptedByJsonParse(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** An integer too big for a double to hold exactly, as its digits. */
export const unsafeIntegerText: fc.Arbitrary<string> = fc
  .bigInt({ min: -(10n ** 25n), max: 10n ** 25n })
  .filter((n) => n >= 2n ** 53n || n <= -(2n ** 53n))
  .map(String);

/**
 * JSON text whose numbers include unsafe integers, and whose strings include digit runs, quotes,
 * backslashes and structural characters: the cases where finding number tokens is hard.
 */
export const trickyJsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    unsafeIntegerText,
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
    fc.constantFrom('true', 'false', 'null', '12345678901234567890.5', '1234567890123456789e2', '-0'),
    fc
      .array(
        fc.oneof(
          fc.string(),
          unsafeIntegerText.map((d) => `:${d},`),
          fc.constantFrom('"', '\\', '\\"', ',', '[', ':'),
        ),
      )
      .map((parts) => JSON.stringify(parts.join(''))),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
    fc.array(fc.tuple(fc.string(), tie('value')), { maxLength: 4 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:\n ${v}`).join(',')}}`),
  ),
})).value;

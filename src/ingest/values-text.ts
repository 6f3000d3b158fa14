import type { FlatValue } from './flatten-event.js';

/** Separates values in `searchText`: a separator for token boundaries (D9) that no value holds in practice. */
export const valueSeparator = '\u0000';

/**
 * The canonical text of a number (docs/query-language.md): JavaScript's shortest round-trip form
 * with a bare exponent, which is exactly what ClickHouse's `toString(Float64)` prints, so free
 * text over `search_text` and column predicates over typed sub-columns agree.
 */
export function numberText(value: number): string {
  const text = String(value);
  return text.includes('e+') ? text.replace('e+', 'e') : text;
}

/** The text of every value of a flattened event, joined by `valueSeparator` (the engine's `search_text`). */
export function valuesText(attrs: Readonly<Record<string, FlatValue>>): string {
  let out = '';
  let first = true;
  for (const path in attrs) {
    const value = attrs[path] as FlatValue;
    const text = typeof value === 'string' ? value : numberText(value);
    out = first ? text : out + valueSeparator + text;
    first = false;
  }
  return out;
}

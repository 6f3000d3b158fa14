import { numberText } from '../engine/index.js';
import type { FlatValue } from './flatten-event.js';

export { numberText };

/** Separates values in `searchText`: a separator for token boundaries (D9) that no value holds in practice. */
export const valueSeparator = '\u0000';

/**
 * The text of every value of a flattened event, joined by `valueSeparator`: the engine's
 * `search_text`, which its `EventEncoder` builds from the values as it writes them.
 */
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

import type { Value } from './ast.js';

/**
 * True for a number term written in its canonical text (docs/query-language.md), the text
 * `search_text` holds for a stored number: free text can find it there. `200.0` cannot be.
 */
export function isCanonicalNumber(term: Value): boolean {
  return term.kind === 'number' && String(term.value).replace('e+', 'e') === term.text;
}

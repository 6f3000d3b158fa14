/**
 * The canonical text of a number (docs/query-language.md): JavaScript's shortest round-trip form
 * with a bare exponent, which is exactly what ClickHouse's `toString(Float64)` prints, so free
 * text over `search_text` and column predicates over typed sub-columns agree.
 */
export function numberText(value: number): string {
  const text = String(value);
  return text.includes('e+') ? text.replace('e+', 'e') : text;
}

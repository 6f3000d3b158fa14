/**
 * The word index of stored events (`search_words`), shared by the schema that builds it and the
 * compiler that names it: ClickHouse uses a text index only for the very expression it was built
 * on, so both sides take it from here.
 *
 * Words are the language's tokens (D9): runs of ASCII letters, digits, `_` and non-ASCII
 * characters. ClickHouse's `splitByNonAlpha` tokenizer also splits at `_`, so the index is built
 * over the lower-cased values text with every `_` written as `Z`: `lower` leaves no upper-case
 * ASCII letter behind, so a `Z` can only stand for `_`, and `splitByNonAlpha` then cuts exactly
 * the D9 words. Because the index holds whole words, `hasToken` on this expression is the exact
 * meaning of a one-word term, and the engine answers it from the index without reading the text.
 */
export const searchWordsExpression = "replaceAll(lower(search_text), '_', 'Z')";

/** Lower-cases ASCII letters only, like ClickHouse's `lower`. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** A word as `searchWordsExpression` holds it: ASCII letters lower-cased, `_` written as `Z`. */
export function searchWordsToken(word: string): string {
  return asciiLower(word).replaceAll('_', 'Z');
}

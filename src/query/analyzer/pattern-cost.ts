import { ErrorCodes, errorDiagnostic, type Diagnostic } from '../../core/index.js';
import type { Query, Value } from '../ast.js';
import { forEachQueryFilterLeaf, forEachValue } from './filter-columns.js';

/**
 * Every term that matches text runs in the engine as an RE2 program of about one instruction per
 * byte of its text and per wildcard. RE2 answers from a cached DFA whose states grow with the
 * program; past its memory budget it falls back to a scan about a thousand times slower.
 * Measured on one 1 MB value that the term's words occur in (the worst case: the value repeats
 * the term's letters): 1,000 bytes of letters took 0.2 s, 2,000 took 63 s; 1,400 wildcards
 * between one-letter pieces 0.4 s, 1,600 took 131 s; 998 four-byte characters 72 s. So a term
 * is refused before it reaches the engine past these limits, with a clear 400 at its position.
 */
export const maxPatternBytes = 1000;
/** Wildcards one term may hold: far more than any real search needs, far below the engine's cliff. */
export const maxPatternWildcards = 64;

/** A problem at each term of the query (event filter and every `where`) past a pattern limit; all of them at once. */
export function checkPatternCost(query: Query): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const check = (value: Value): void => {
    const wildcards = value.kind === 'string' ? value.segments.length - 1 : 0;
    const bytes = value.kind === 'string' ? value.segments.reduce((sum, piece) => sum + Buffer.byteLength(piece, 'utf8'), wildcards) : value.text.length;
    if (wildcards > maxPatternWildcards) {
      problems.push(
        errorDiagnostic(ErrorCodes.queryAnalysis, `the term holds ${wildcards} wildcards, more than the ${maxPatternWildcards} one term may; use fewer`, { span: value.span }),
      );
    }
    if (bytes > maxPatternBytes) {
      problems.push(
        errorDiagnostic(
          ErrorCodes.queryAnalysis,
          `the term is ${bytes} bytes long as a pattern (each wildcard counts 1, each character its UTF-8 bytes), more than the ${maxPatternBytes} one term may; shorten it`,
          { span: value.span },
        ),
      );
    }
  };
  forEachQueryFilterLeaf(query, (leaf) => {
    // comparisons (`<`, `==`) compare values, never run the term as a pattern
    if (leaf.kind === 'text') check(leaf.value);
    else if (leaf.kind === 'match') forEachValue(leaf.value, check);
  });
  return problems;
}

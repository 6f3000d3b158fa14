import { QuerySyntaxError, formatPosition, hasErrors, type Span } from '../../core/index.js';
import type { Filter, Query, Scalar } from '../ast.js';
import { parseFilter } from './parse-filter.js';
import { parsePipeline } from './parse-pipeline.js';
import { checkExpressionEnd, parseScalarExpr } from './parse-scalar.js';
import { ParserState } from './parser-state.js';
import type { QueryDiagnostic } from '../syntax-diagnostic.js';

export interface ParseResult {
  /** The syntax tree, or null when there is any error diagnostic. */
  readonly query: Query | null;
  /** Every problem found, in text order of discovery. */
  readonly diagnostics: readonly QueryDiagnostic[];
}

export interface ScalarParseResult {
  readonly expr: Scalar | null;
  readonly diagnostics: readonly QueryDiagnostic[];
}

/**
 * Parses query text. Never throws: problems come back as diagnostics, all of them, because the
 * parser recovers at the next term, `)` or `|` and carries on.
 *
 * A query with no filter (empty, only comments, or starting with `|`, as in `| count`) filters
 * nothing: its filter is the match-everything term `*`, with an empty span where the filter
 * would be.
 */
export function parseQuery(text: string): ParseResult {
  const state = new ParserState(text);
  const filterStart = state.peek().span.start;
  const filter = parseFilter(state, { inWhere: false }) ?? matchAll({ start: filterStart, end: filterStart });
  const pipeline = parsePipeline(state);
  const diagnostics = state.diagnostics;
  if (hasErrors(diagnostics)) return { query: null, diagnostics };
  const query: Query = { kind: 'query', filter, pipeline, span: state.source.span(0, text.length) };
  return { query, diagnostics };
}

/** Parses query text or throws `QuerySyntaxError` carrying every diagnostic. */
export function parseQueryOrThrow(text: string): Query {
  const result = parseQuery(text);
  if (result.query) return result.query;
  throw syntaxError(result.diagnostics);
}

/** Parses a standalone scalar expression (section 6.3), as alert templates hold in `{{ }}`. */
export function parseScalar(text: string): ScalarParseResult {
  const state = new ParserState(text);
  let expr = parseScalarExpr(state);
  if (expr && !checkExpressionEnd(state, [])) expr = null;
  if (!expr && state.diagnostics.length === 0) state.errorAtNext('expected an expression', undefined, 'scalar');
  const diagnostics = state.diagnostics;
  return { expr: hasErrors(diagnostics) ? null : expr, diagnostics };
}

function matchAll(span: Span): Filter {
  return { kind: 'text', value: { kind: 'string', quote: 'bare', segments: ['', ''], span }, span };
}

function syntaxError(diagnostics: readonly QueryDiagnostic[]): QuerySyntaxError {
  const first = diagnostics[0];
  const where = first?.span ? ` at ${formatPosition(first.span.start)}` : '';
  return new QuerySyntaxError(`${first?.message ?? 'invalid query'}${where}`, {
    diagnostics,
    ...(first?.span ? { span: first.span } : {}),
  });
}

/**
 * Compiles filters (the event filter and `where`) to ClickHouse boolean expressions. Every atom
 * is an exact predicate that is never NULL (so `NOT` stays two-valued); where the word index can
 * help, a necessary condition on its words goes in front of it as a prefilter, and a one-word
 * term over all values is the index lookup alone.
 */
import { assertNever, searchWordsExpression, searchWordsToken, sqlString } from '../../core/index.js';
import type { ColumnName, Filter, Value, ValueExpr } from '../ast.js';
import { printFilter } from '../printer.js';
import { isCanonicalNumber } from '../canonical-number.js';
import { columnNameMatcher, isEveryColumn, isSystemColumn, plainColumnName } from '../column-names.js';
import type { AnalyzedQuery } from '../analyzer/analyze-query.js';
import { resolveColumn, type ResolvedColumn, type SqlEnv } from './sql-env.js';
import { valueText, type SqlValue } from './sql-value.js';
import { compileBoundCompare, compileNumberEquals } from './compile-compare.js';
import { nullCheck, presenceLookup, type ReadParts } from './rest-map-reads.js';
import { isWildcardOnly, mayMatchNumberText, partialWords, prefilterTokens, termPattern, wholeWordTerm, type MatchMode, type TermPieces } from './term-pattern.js';

/** How one predicate is evaluated, for `--explain`. */
export interface PredicatePlan {
  /** The filter as the user wrote it (canonical text), e.g. `user: dave`. */
  readonly source: string;
  readonly predicate: string;
  /**
   * `answers`: the word index alone decides it (`predicate` is the lookup); `prefilters`: the
   * `prefilters` indexes narrow the rows, then `predicate` tests them; `none`: `predicate` tests
   * every row; `null-check`: `predicate` tests the rows where the rest-map column it reads holds
   * a value (rest-map-reads.ts).
   */
  readonly index: 'answers' | 'prefilters' | 'none' | 'null-check';
  /** With `prefilters`: the indexes that narrow (the word index, the column index of field_paths). */
  readonly prefilters?: readonly ('search_words' | 'field_paths')[];
}

export interface FilterContext {
  readonly analyzed: AnalyzedQuery;
  readonly indexNames: ReadonlyMap<string, string>;
  readonly plans: PredicatePlan[];
  /** The filter atom being compiled, for the plans. */
  source?: string;
  /**
   * Compile only a necessary condition on the text index: each atom becomes its prefilter (or
   * true when it has none), `not …` becomes true. Whatever the filter matches, this matches too.
   */
  readonly prefilterOnly?: boolean;
  /** With `prefilterOnly`: `@index` filters become true too, leaving the text-index tokens alone. */
  readonly tokensOnly?: boolean;
  /** Also prefilter terms over all values by the parts of words they hold (CompileOptions.partialWords). */
  readonly partialWords?: boolean;
}

/** Compiles a filter over the stage's table to a UInt8 expression. */
export function compileFilter(filter: Filter, env: SqlEnv, ctx: FilterContext): string {
  switch (filter.kind) {
    case 'and':
      return allOf(
        filter.operands.map((f) => compileFilter(f, env, ctx)),
        ctx,
      );
    case 'or':
      return anyOf(
        filter.operands.map((f) => compileFilter(f, env, ctx)),
        ctx,
      );
    case 'not':
      return ctx.prefilterOnly ? '1' : `(NOT ${compileFilter(filter.operand, env, ctx)})`;
    case 'text':
      ctx.source = printFilter(filter);
      return compileFreeText(filter.value, env, ctx);
    case 'match': {
      // A value group is shorthand for repeating the column filter (D15); each resulting
      // `col: term` holds when any column matching the name satisfies it (D16).
      const mode = filter.op === ':' ? 'contains' : 'whole';
      return compileValueExpr(filter.value, ctx, (term) => {
        ctx.source = printFilter({ ...filter, value: term });
        const overValues = isEveryColumn(filter.column) ? compileOverAllValues(term, mode, env, ctx) : null;
        return overValues ?? anyColumn(filter.column, env, ctx, (column, alone) => compileTerm(term, column, mode, alone, ctx));
      });
    }
    case 'compare': {
      ctx.source = printFilter(filter);
      // `a != v` is `not a == v` over the whole name: with a wildcard, no matching column equals v.
      if (filter.op === '!=') {
        if (ctx.prefilterOnly) return '1';
        // It holds where the column is missing too, so no index narrows it.
        const unequal = `(NOT ${anyColumn(filter.column, env, ctx, (column) => compileCompare('==', filter.value, column.value))})`;
        ctx.plans.push({ source: ctx.source, predicate: unequal, index: 'none' });
        return unequal;
      }
      if (filter.op === '==') {
        // An equality holds on a value only, never where the column is missing.
        const readsNumbers = filter.value.kind === 'number';
        const reads = { strings: !readsNumbers, numbers: readsNumbers };
        return anyColumn(filter.column, env, ctx, (column, alone) => onValues(column.value, reads, [], compileCompare('==', filter.value, column.value), alone, ctx));
      }
      return compileBoundOverColumns(filter.op, filter.value, columnNames(filter.column, env, ctx), env, ctx);
    }
    case 'index': {
      if (ctx.prefilterOnly && ctx.tokensOnly) return '1';
      const ids = ctx.analyzed.indexTargets.get(filter) ?? [];
      return ids.length === 0 ? '0' : `(idx IN (${ids.map(sqlString).join(', ')}))`;
    }
    default:
      return assertNever(filter);
  }
}

/** The filter holds if any column matching the (possibly wildcard) name satisfies `atom` (D16). */
function anyColumn(column: ColumnName, env: SqlEnv, ctx: FilterContext, atom: (c: ResolvedColumn, alone: boolean) => string): string {
  const names = columnNames(column, env, ctx);
  if (names.length === 0) return '0';
  const atoms = names.map((name) => atom(resolveColumn(env, name, ctx.indexNames), names.length === 1));
  return atoms.length === 1 ? (atoms[0] as string) : anyOf(atoms, ctx);
}

/**
 * `< <= > >=` over the columns a name stands for (D16, D17). Over several columns the comparison
 * is written once, in a lambda over their value pairs: its exact path is long, and once per
 * column it would outgrow the engine's query size limit for `** > 5` over a few hundred columns.
 */
function compileBoundOverColumns(op: string, term: Value, names: readonly string[], env: SqlEnv, ctx: FilterContext): string {
  const values = names.map((name) => resolveColumn(env, name, ctx.indexNames).value);
  if (values.length === 0) return '0';
  // A bound holds on a value only: where every column is read from a rest map, the rows holding one of them are found first.
  const both = { strings: true, numbers: true };
  if (values.length === 1) return onValues(values[0] as SqlValue, both, [], compileCompare(op, term, values[0] as SqlValue), true, ctx);
  const lookups = values.map((v) => presenceLookup(v, both));
  const present = lookups.every((lookup) => lookup !== undefined) ? `(${lookups.join(' OR ')})` : undefined;
  const pairs = values.map((v) => `tuple(${v.n}, ${v.s})`);
  return withPrefilter([], `arrayExists(c -> ${compileCompare(op, term, { n: 'c.1', s: 'c.2', exists: '1' })}, [${pairs.join(', ')}])`, ctx, [], present);
}

/**
 * A test of `value` that holds on values only: behind a null check where it reads a rest map
 * (rest-map-reads.ts), else behind the word index's `tokens` when there are any. A test of one
 * of several columns a name stands for (`alone` false) keeps the indexes: the text index skips
 * a granule for an OR of tests only when each of them names an index lookup, and over 5 M
 * events `id.*: 10.47.1.208` (6 of its 8 columns in rest maps) took 1.13× as long without.
 */
function onValues(value: SqlValue, reads: ReadParts, tokens: readonly string[], exact: string, alone: boolean, ctx: FilterContext): string {
  const check = ctx.prefilterOnly || !alone ? undefined : nullCheck(value, reads);
  return check !== undefined ? behindNullCheck(check, exact, ctx) : withPrefilter(tokens, exact, ctx, [], presenceLookup(value, reads));
}

function behindNullCheck(check: string, exact: string, ctx: FilterContext): string {
  ctx.plans.push({ source: ctx.source ?? '', predicate: exact, index: 'null-check' });
  return `(${check} AND ${exact})`;
}

/** `(a AND b …)`; a prefilter drops the `1`s (and is `0` when any operand is). */
function allOf(operands: readonly string[], ctx: FilterContext): string {
  if (!ctx.prefilterOnly) return `(${operands.join(' AND ')})`;
  if (operands.includes('0')) return '0';
  const rest = operands.filter((o) => o !== '1');
  return rest.length === 0 ? '1' : rest.length === 1 ? (rest[0] as string) : `(${rest.join(' AND ')})`;
}

/** `(a OR b …)`; a prefilter is `1` when any operand is (and drops the `0`s). */
function anyOf(operands: readonly string[], ctx: FilterContext): string {
  if (!ctx.prefilterOnly) return `(${operands.join(' OR ')})`;
  if (operands.includes('1')) return '1';
  const rest = operands.filter((o) => o !== '0');
  return rest.length === 0 ? '0' : rest.length === 1 ? (rest[0] as string) : `(${rest.join(' OR ')})`;
}

/** The concrete columns a name stands for in this stage. */
export function columnNames(column: ColumnName, env: SqlEnv, ctx: FilterContext): string[] {
  const plain = plainColumnName(column);
  if (plain !== null) return [plain];
  const matches = columnNameMatcher(column);
  if (env.mode === 'table') return env.columns.map((c) => c.name).filter(matches);
  const stored = isEveryColumn(column) ? ctx.analyzed.fieldPaths : (ctx.analyzed.columnExpansions.get(column) ?? ctx.analyzed.fieldPaths.filter(matches));
  const names = new Set(stored.filter((name) => env.overrides.get(name) !== 'deleted'));
  for (const [name, override] of env.overrides) if (override !== 'deleted' && !isSystemColumn(name) && matches(name)) names.add(name);
  return [...names];
}

type Mode = 'contains' | 'whole';

function compileValueExpr(value: ValueExpr, ctx: FilterContext, atom: (term: Value) => string): string {
  switch (value.kind) {
    case 'valueAnd':
      return allOf(
        value.operands.map((v) => compileValueExpr(v, ctx, atom)),
        ctx,
      );
    case 'valueOr':
      return anyOf(
        value.operands.map((v) => compileValueExpr(v, ctx, atom)),
        ctx,
      );
    case 'valueNot':
      return ctx.prefilterOnly ? '1' : `(NOT ${compileValueExpr(value.operand, ctx, atom)})`;
    case 'string':
    case 'number':
      return atom(value);
    default:
      return assertNever(value);
  }
}

/** One term against one column value: text match, plus numeric equality for number terms (D8, D14). */
function compileTerm(term: Value, column: ResolvedColumn, mode: Mode, alone: boolean, ctx: FilterContext): string {
  const { value } = column;
  if (term.kind === 'string' && isWildcardOnly(term.segments)) return ctx.prefilterOnly ? '1' : value.exists;
  const pieces = term.kind === 'string' ? { segments: term.segments, quote: term.quote } : { segments: [term.text], quote: 'bare' as const };
  // A string term no number's text can match is matched against the string values alone.
  const text = term.kind === 'string' && !mayMatchNumberText(term.segments) ? value.s : valueText(value);
  let exact = `coalesce(match(${text}, ${sqlString(termPattern(pieces, mode, 'value'))}), 0)`;
  if (term.kind === 'number') {
    const equal = compileNumberEquals(term.text, value.n);
    if (equal !== '0') exact = `(${exact} OR ${equal})`;
  }
  // A number term written in other than canonical text may match a number whose text differs.
  const tokens = column.inSearchText && (term.kind === 'string' || isCanonicalNumber(term)) ? prefilterTokens(pieces) : [];
  // The term matches values only (wildcard-only terms returned above), so rows without the
  // column never match.
  return onValues(value, { strings: true, numbers: text !== value.s || term.kind === 'number' }, tokens, exact, alone, ctx);
}

function compileFreeText(term: Value, env: SqlEnv, ctx: FilterContext): string {
  if (term.kind === 'string' && isWildcardOnly(term.segments)) return '1';
  // search_text holds each stored value's text, numbers in canonical text, so a number term
  // written canonically is found by its text; `200.0` must compare numbers column by column.
  const textSuffices = term.kind === 'string' || isCanonicalNumber(term);
  if (env.mode === 'events' && env.overrides.size === 0 && textSuffices) {
    const pieces = term.kind === 'string' ? { segments: term.segments, quote: term.quote } : { segments: [term.text], quote: 'bare' as const };
    return overSearchText(pieces, 'contains', ctx);
  }
  // Otherwise search the stage's user columns one by one.
  const names = env.mode === 'table' ? env.columns.map((c) => c.name) : columnNames(everyColumn(term), env, ctx).filter((name) => !isSystemColumn(name));
  const atoms = names.map((name) => compileTerm(term, resolveColumn(env, name, ctx.indexNames), 'contains', names.length === 1, ctx));
  return atoms.length === 0 ? '0' : anyOf(atoms, ctx);
}

/**
 * `**: v` over stored events needs no list of columns: search_text holds every value, so one
 * pattern over it answers the term. Returns null when it cannot (changed columns, exists).
 */
function compileOverAllValues(value: Value, mode: Mode, env: SqlEnv, ctx: FilterContext): string | null {
  if (env.mode !== 'events' || env.overrides.size > 0) return null;
  if (value.kind === 'string' && isWildcardOnly(value.segments)) return null;
  if (value.kind === 'number' && !isCanonicalNumber(value)) return null;
  const pieces = value.kind === 'string' ? { segments: value.segments, quote: value.quote } : { segments: [value.text], quote: 'bare' as const };
  return overSearchText(pieces, mode, ctx);
}

/** A term over every stored value (search_text): the word lookup alone when the term is one word. */
function overSearchText(pieces: TermPieces, mode: MatchMode, ctx: FilterContext): string {
  const word = mode === 'contains' ? wholeWordTerm(pieces) : null;
  if (word !== null) {
    const lookup = wordsPrefilter([word]);
    if (!ctx.prefilterOnly) ctx.plans.push({ source: ctx.source ?? '', predicate: lookup, index: 'answers' });
    return lookup;
  }
  const exact = `match(search_text, ${sqlString(termPattern(pieces, mode, 'valueList'))})`;
  return withPrefilter(prefilterTokens(pieces), exact, ctx, ctx.partialWords === true ? partialWords(pieces) : []);
}

function everyColumn(term: Value): ColumnName {
  return { kind: 'column', quote: 'bare', parts: [{ kind: 'globstar' }], span: term.span };
}

function compileCompare(op: string, term: Value, value: SqlValue): string {
  switch (op) {
    case '<':
    case '<=':
    case '>':
    case '>=': {
      // A number literal or a quoted decimal without wildcards (D17).
      const text = term.kind === 'number' ? term.text : term.segments.length === 1 ? (term.segments[0] as string) : null;
      return text === null ? '0' : compileBoundCompare(op, text, value);
    }
    case '==':
    case '!=': {
      const equal = term.kind === 'number' ? compileNumberEquals(term.text, value.n) : `coalesce(${value.s} = ${sqlString(term.segments.join('*'))}, 0)`;
      return op === '==' ? equal : `(NOT ${equal})`;
    }
    default:
      // eslint-disable-next-line no-restricted-syntax -- internal invariant: the parser accepts only these operators
      throw new Error(`unknown comparison operator ${op}`);
  }
}

function withPrefilter(tokens: readonly string[], exact: string, ctx: FilterContext, parts: readonly string[] = [], present?: string): string {
  if (ctx.prefilterOnly && tokens.length === 0) return present ?? '1';
  if (tokens.length === 0 && parts.length === 0 && present === undefined) {
    ctx.plans.push({ source: ctx.source ?? '', predicate: exact, index: 'none' });
    return exact;
  }
  const lookups = parts.map(partialWordPrefilter);
  if (tokens.length > 0) lookups.unshift(wordsPrefilter(tokens));
  if (present !== undefined) lookups.push(present);
  const prefilter = lookups.join(' AND ');
  if (ctx.prefilterOnly) return prefilter;
  const prefilters = [...(tokens.length + parts.length > 0 ? (['search_words'] as const) : []), ...(present !== undefined ? (['field_paths'] as const) : [])];
  ctx.plans.push({ source: ctx.source ?? '', predicate: exact, index: 'prefilters', prefilters });
  return `(${prefilter} AND ${exact})`;
}

/**
 * True when some word of the values text holds `part` (letter case folded): a `LIKE` that the
 * word index answers by scanning its dictionary for the words that hold it.
 */
function partialWordPrefilter(part: string): string {
  const needle = searchWordsToken(part).replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return `like(${searchWordsExpression}, ${sqlString(`%${needle}%`)})`;
}

/** True when the values text holds every word (D9), letter case folded: answered by the word index. */
function wordsPrefilter(words: readonly string[]): string {
  const needles = [...new Set(words.map(searchWordsToken))].map(sqlString);
  return needles.length === 1 ? `hasToken(${searchWordsExpression}, ${needles[0]})` : `hasAllTokens(${searchWordsExpression}, [${needles.join(', ')}])`;
}

/**
 * fast-check generators of syntax trees, for round-trip tests of the parser and printer and for
 * property tests that compare the compiler with the reference evaluator. Every tree is canonical
 * (what the parser builds from its printed text): n-ary `and`/`or` never directly nest their own
 * kind, names are bare only where they read back bare, and so on. Spans are placeholders.
 */
import fc from 'fast-check';
import type { AggregationCall, AggregationFunction, Command, Filter, IndexTarget, Query, Scalar, StatsItem, ValueExpr } from '../ast.js';
import { aggregationFunctions } from '../parser/parse-aggregation.js';
import { scalarArbitrary } from './arbitrary-scalar.js';
import { arbitraryColumnName, arbitraryNumber, arbitraryString, arbitraryValue, defaultVocabulary, noSpan, numberValue, type VocabularyOptions } from './arbitrary-values.js';

export { noSpan, defaultVocabulary, type VocabularyOptions };

export interface ArbitraryQueryOptions extends Partial<VocabularyOptions> {
  /** How deep filters, value groups and expressions nest (default 3). */
  readonly maxDepth?: number;
  /** Index names for `@index` filters; none (the default) means no index filters. */
  readonly indexes?: readonly string[];
  /** Whether to add pipeline commands (default true), or which kinds of command to use. */
  readonly pipeline?: boolean | readonly Command['kind'][];
  /** At most this many commands (default 3). */
  readonly maxCommands?: number;
  /** Whether filters may use `<`-style comparisons (default true). */
  readonly comparisons?: boolean;
  /** Lookup tables a `lookup` command may name, with their columns (default one table, `bad_ips`). */
  readonly lookupTables?: readonly { readonly name: string; readonly columns: readonly string[] }[];
}

// `lookup` needs the tenant's lookup tables, which queries drawn without them would name in vain: ask for it by kind.
const allCommands: readonly Command['kind'][] = ['aggregate', 'groupbycount', 'stats', 'eval', 'where', 'table', 'rename', 'head', 'tail'];
const defaultLookupTables = [{ name: 'bad_ips', columns: ['indicator', 'provider', 'a'] }];

function vocabularyOf(options: ArbitraryQueryOptions): VocabularyOptions {
  return {
    columns: options.columns ?? defaultVocabulary.columns,
    terms: options.terms ?? defaultVocabulary.terms,
    numbers: options.numbers ?? defaultVocabulary.numbers,
    wildcards: options.wildcards ?? true,
  };
}

/** Whole queries: a filter and a pipeline as the options allow. */
export function arbitraryQuery(options: ArbitraryQueryOptions = {}): fc.Arbitrary<Query> {
  const kinds = options.pipeline === false ? [] : options.pipeline === true || options.pipeline === undefined ? allCommands : options.pipeline;
  const commands = kinds.length === 0 ? fc.constant([]) : fc.array(arbitraryCommand(options, kinds), { maxLength: options.maxCommands ?? 3 });
  return fc.tuple(arbitraryFilter(options), commands).map(([filter, pipeline]): Query => ({ kind: 'query', filter, pipeline, span: noSpan }));
}

/** Filters of the main query (`inWhere: false`) or of a `where` command (D24). */
export function arbitraryFilter(options: ArbitraryQueryOptions = {}, inWhere = false): fc.Arbitrary<Filter> {
  const vocabulary = vocabularyOf(options);
  const wildcards = vocabulary.wildcards;
  const column = arbitraryColumnName(vocabulary, 'filter', { wildcards, avoid: inWhere ? [] : ['@index'] });
  const plainColumn = arbitraryColumnName(vocabulary, 'filter', { avoid: inWhere ? [] : ['@index'] });
  const values = valueExprArbitrary(vocabulary, options.maxDepth ?? 3);
  const leaves: fc.Arbitrary<Filter>[] = [
    arbitraryValue(vocabulary).map((value): Filter => ({ kind: 'text', value, span: noSpan })),
    fc.tuple(column, fc.constantFrom<':' | '='>(':', '='), values).map(([c, op, value]): Filter => ({ kind: 'match', column: c, op, value, span: noSpan })),
  ];
  if (options.comparisons ?? true) {
    const ops = fc.constantFrom<'<' | '<=' | '>' | '>='>('<', '<=', '>', '>=');
    leaves.push(fc.tuple(column, ops, arbitraryNumber(vocabulary)).map(([c, op, value]): Filter => ({ kind: 'compare', column: c, op, value, span: noSpan })));
  }
  if (inWhere) {
    const value = fc.oneof(arbitraryString(vocabulary, false), arbitraryNumber(vocabulary));
    const ops = fc.constantFrom<'==' | '!='>('==', '!=');
    leaves.push(fc.tuple(plainColumn, ops, value).map(([c, op, v]): Filter => ({ kind: 'compare', column: c, op, value: v, span: noSpan })));
  } else if (options.indexes && options.indexes.length > 0) {
    leaves.push(arbitraryIndexFilter(options.indexes));
  }
  const leaf = fc.oneof(...leaves);
  let level: fc.Arbitrary<Filter> = leaf;
  for (let depth = 1; depth <= (options.maxDepth ?? 3); depth++) {
    const sub = level;
    const notAnd = sub.filter((f) => f.kind !== 'and');
    const notOr = sub.filter((f) => f.kind !== 'or');
    level = fc.oneof(
      { arbitrary: leaf, weight: 3 },
      { arbitrary: sub.map((operand): Filter => ({ kind: 'not', operand, span: noSpan })), weight: 1 },
      { arbitrary: fc.array(notAnd, { minLength: 2, maxLength: 3 }).map((operands): Filter => ({ kind: 'and', operands, span: noSpan })), weight: 2 },
      { arbitrary: fc.array(notOr, { minLength: 2, maxLength: 3 }).map((operands): Filter => ({ kind: 'or', operands, span: noSpan })), weight: 2 },
    );
  }
  return level;
}

function valueExprArbitrary(vocabulary: VocabularyOptions, maxDepth: number): fc.Arbitrary<ValueExpr> {
  const leaf: fc.Arbitrary<ValueExpr> = arbitraryValue(vocabulary);
  let level = leaf;
  for (let depth = 1; depth <= maxDepth; depth++) {
    const sub = level;
    level = fc.oneof(
      { arbitrary: leaf, weight: 3 },
      { arbitrary: sub.map((operand): ValueExpr => ({ kind: 'valueNot', operand, span: noSpan })), weight: 1 },
      {
        arbitrary: fc
          .array(
            sub.filter((v) => v.kind !== 'valueAnd'),
            { minLength: 2, maxLength: 3 },
          )
          .map((operands): ValueExpr => ({ kind: 'valueAnd', operands, span: noSpan })),
        weight: 1,
      },
      {
        arbitrary: fc
          .array(
            sub.filter((v) => v.kind !== 'valueOr'),
            { minLength: 2, maxLength: 3 },
          )
          .map((operands): ValueExpr => ({ kind: 'valueOr', operands, span: noSpan })),
        weight: 2,
      },
    );
  }
  return level;
}

function arbitraryIndexFilter(indexes: readonly string[]): fc.Arbitrary<Filter> {
  const id = fc.constantFrom('00000000-0000-0000-0000-000000000000', '5d1c2a9e-7b0f-4c3e-9a51-2f6d8e4b1c07');
  const name = fc.constantFrom(...indexes);
  const target = fc.oneof(
    name.map((n): IndexTarget => ({ kind: 'indexTarget', name: n, id: null, span: noSpan })),
    id.map((i): IndexTarget => ({ kind: 'indexTarget', name: null, id: i, span: noSpan })),
    fc.tuple(id, name).map(([i, n]): IndexTarget => ({ kind: 'indexTarget', name: n, id: i, span: noSpan })),
  );
  return fc.array(target, { minLength: 1, maxLength: 3 }).map((targets): Filter => ({ kind: 'index', targets, span: noSpan }));
}

/** Expressions as `eval` holds them. */
export function arbitraryScalar(options: ArbitraryQueryOptions = {}): fc.Arbitrary<Scalar> {
  return scalarArbitrary(vocabularyOf(options), options.maxDepth ?? 3);
}

/** One pipeline command of one of `kinds`. */
export function arbitraryCommand(options: ArbitraryQueryOptions = {}, kinds: readonly Command['kind'][] = allCommands): fc.Arbitrary<Command> {
  const vocabulary = vocabularyOf(options);
  const column = arbitraryColumnName(vocabulary, 'pipeline');
  const columns = fc.array(column, { minLength: 1, maxLength: 3 });
  const rows = fc.integer({ min: 1, max: 10_000 }).map(numberValue);
  const byKind: Record<Command['kind'], () => fc.Arbitrary<Command>> = {
    aggregate: () => arbitraryCall(vocabulary).map((call): Command => ({ kind: 'aggregate', call, span: noSpan })),
    groupbycount: () => columns.map((c): Command => ({ kind: 'groupbycount', columns: c, span: noSpan })),
    stats: () => arbitraryStats(vocabulary),
    eval: () =>
      fc
        .array(fc.tuple(column, arbitraryScalar(options)), { minLength: 1, maxLength: 3 })
        .map((pairs): Command => ({ kind: 'eval', assignments: pairs.map(([c, expr]) => ({ kind: 'assignment', column: c, expr, span: noSpan })), span: noSpan })),
    where: () => arbitraryFilter(options, true).map((filter): Command => ({ kind: 'where', filter, span: noSpan })),
    table: () => columns.map((c): Command => ({ kind: 'table', columns: c, span: noSpan })),
    rename: () =>
      fc
        .array(fc.tuple(column, column), { minLength: 1, maxLength: 3 })
        .map((pairs): Command => ({ kind: 'rename', renames: pairs.map(([from, to]) => ({ kind: 'renameItem', from, to, span: noSpan })), span: noSpan })),
    head: () => fc.option(rows).map((count): Command => ({ kind: 'head', count, span: noSpan })),
    tail: () => fc.option(rows).map((count): Command => ({ kind: 'tail', count, span: noSpan })),
    lookup: () => arbitraryLookup(vocabulary, options.lookupTables ?? defaultLookupTables),
  };
  return fc.oneof(...kinds.map((kind) => byKind[kind]()));
}

/** `lookup TABLE KEY [as FIELD] [output COL [as NAME], ...]` over one of the tables, naming only its columns. */
function arbitraryLookup(vocabulary: VocabularyOptions, tables: NonNullable<ArbitraryQueryOptions['lookupTables']>): fc.Arbitrary<Command> {
  const rowColumn = arbitraryColumnName(vocabulary, 'pipeline');
  return fc.constantFrom(...tables).chain((table) => {
    const tableColumn = arbitraryColumnName({ ...vocabulary, columns: table.columns }, 'pipeline');
    const output = fc.tuple(tableColumn, fc.option(rowColumn)).map(([column, alias]) => ({ kind: 'lookupOutput' as const, column, alias, span: noSpan }));
    return fc
      .tuple(tableColumn, fc.option(rowColumn), fc.option(fc.array(output, { minLength: 1, maxLength: 3 })))
      .map(([key, field, outputs]): Command => ({ kind: 'lookup', table: { kind: 'lookupTable', name: table.name, span: noSpan }, key, field, outputs, span: noSpan }));
  });
}

/** An aggregation call with the arity its function takes. */
export function arbitraryCall(vocabulary: VocabularyOptions): fc.Arbitrary<AggregationCall> {
  const column = arbitraryColumnName(vocabulary, 'pipeline');
  const rank = fc.constantFrom(0, 50, 90, 99.9, 100).map(numberValue);
  return fc.constantFrom(...aggregationFunctions).chain((fn: AggregationFunction) => {
    const call = (args: AggregationCall['args'], r: AggregationCall['rank'] = null): AggregationCall => ({ kind: 'call', fn, args, rank: r, span: noSpan });
    switch (fn) {
      case 'count':
        return fc.constant(call([]));
      case 'countdistinct':
      case 'max':
      case 'min':
        return fc.array(column, { minLength: 1, maxLength: 3 }).map((args) => call(args));
      case 'percentile':
        return fc.tuple(rank, column).map(([r, c]) => call([c], r));
      default:
        return column.map((c) => call([c]));
    }
  });
}

/** `stats`: group columns among the items are drawn from the `by` list, as they must be. */
function arbitraryStats(vocabulary: VocabularyOptions): fc.Arbitrary<Command> {
  const by = fc.array(arbitraryColumnName(vocabulary, 'pipeline'), { maxLength: 2 });
  const aggregation = fc
    .tuple(arbitraryCall(vocabulary), fc.option(arbitraryColumnName(vocabulary, 'pipeline')))
    .map(([call, alias]): StatsItem => ({ kind: 'statsAggregation', call, alias, span: noSpan }));
  return by.chain((groups) => {
    const group = groups.map((column) => arbitraryColumnName({ ...vocabulary, columns: [plainText(column.parts)] }, 'statsItem'));
    const item = group.length === 0 ? aggregation : fc.oneof(aggregation, ...group.map((g) => g.map((column): StatsItem => ({ kind: 'statsGroupColumn', column, span: noSpan }))));
    return fc.array(item, { maxLength: 3 }).map((items): Command => ({ kind: 'stats', items, by: groups, span: noSpan }));
  });
}

function plainText(parts: readonly { readonly kind: string; readonly text?: string }[]): string {
  return parts.map((p) => p.text ?? '').join('');
}

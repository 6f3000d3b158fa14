/**
 * fast-check generators for the evaluator's property tests. Alphabets are small on purpose so
 * that generated terms and values often collide and the interesting branches run.
 */
import fc from 'fast-check';
import type { Filter, StringQuote, StringValue, ValueExpr } from '../../ast.js';
import type { EvalEvent } from '../eval-table.js';
import { and, compare, index, match, not, num, or, str, text, vand, vnot, vor } from './ast-builder.js';
import { event } from './event-builder.js';

/** Characters for values and terms: token characters of each kind, separators, a wildcard-ish `*`. */
export const valueChar = fc.constantFrom('a', 'b', 'A', 'B', '1', '_', 'é', 'É', '😀', '-', '.', ' ', '/');
export const valueText = fc.string({ unit: valueChar, maxLength: 8 });
export const tokenWord = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', '1', '_', 'é', '😀'), minLength: 1, maxLength: 3 });
export const separator = fc.string({ unit: fc.constantFrom('-', '.', ' ', '/', '$'), minLength: 1, maxLength: 2 });

export const cellValue = fc.oneof(valueText, fc.integer({ min: -3, max: 12 }), fc.constant(null));
export const columnName = fc.constantFrom('a', 'b', 'tags[0]', 'tags[1]', 'x.y');
export const columns = fc.dictionary(columnName, cellValue, { maxKeys: 4 });

export const quote = fc.constantFrom<StringQuote>('bare', 'single', 'double');

/** A string term, its pieces drawn from the value alphabet, with up to two wildcards. */
export const stringTerm: fc.Arbitrary<StringValue> = fc
  .tuple(fc.array(fc.string({ unit: valueChar, maxLength: 3 }), { minLength: 1, maxLength: 3 }), quote)
  .map(([segments, q]) => ({ ...str('', q), segments }));

const term = fc.oneof(
  stringTerm,
  fc.integer({ min: -3, max: 12 }).map((n) => num(n)),
);
const columnPattern = fc.constantFrom('a', 'b', 'tags[*]', '*', '**', 'x.y', 'missing');

const valueExpr: fc.Arbitrary<ValueExpr> = fc.letrec<{ v: ValueExpr }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.array(tie('v'), { minLength: 2, maxLength: 3 }).map((xs) => vor(...xs)),
    fc.array(tie('v'), { minLength: 2, maxLength: 3 }).map((xs) => vand(...xs)),
    tie('v').map((x) => vnot(x)),
  ),
})).v;

/** Filters of every kind over the generated columns. */
export const filter: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term.map((t) => text(t)),
    fc.tuple(columnPattern, fc.constantFrom(':' as const, '=' as const), valueExpr).map(([c, op, v]) => match(c, op, v)),
    fc.tuple(columnPattern, fc.constantFrom('<' as const, '<=' as const, '>' as const, '>=' as const), fc.integer({ min: -3, max: 12 })).map(([c, op, n]) => compare(c, op, n)),
    fc.constantFrom('main', 'other').map((name) => index(name)),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((xs) => and(...xs)),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((xs) => or(...xs)),
    tie('f').map((x) => not(x)),
  ),
})).f;

/** Events in user indexes, with unique seq, times that collide, and shuffled input order. */
export const eventList: fc.Arbitrary<EvalEvent[]> = fc
  .array(fc.tuple(columns, fc.integer({ min: 0, max: 3 }), fc.constantFrom('main', 'other')), { maxLength: 12 })
  .map((xs) => xs.map(([c, t, indexName], i) => event(c, { seq: BigInt(xs.length - i), tsNs: BigInt(t), indexName, indexId: `id-${indexName}` })));

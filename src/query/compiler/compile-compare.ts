/**
 * Comparisons of a value with a bound (`< <= > >=`, D17) and with a number (`==`, `=`), exact for
 * every number and decimal string (decimal-value.ts): stored integers beyond 2^53 are digit
 * strings (D3), and a Float64 comparison would round them and the bound alike.
 *
 * A stored number is read as its canonical text. Compared with a literal L rounded to the double
 * Ld, a double d is below L when d < Ld and above when d > Ld (rounding is monotone); only at
 * d = Ld does the exact order depend on L, and then it is the constant order of Ld's canonical
 * text and L. So the number side stays one Float64 comparison, the operator adjusted by that
 * constant (the common, fast case). A decimal string is decided by its Float64 too, except within
 * two units in the last place of the rounded bound, where its exact parts are compared in SQL.
 */
import { assertNever, sqlNumber, sqlString } from '../../core/index.js';
import { compareDecimals, decimalValue, exactNumber, numberDecimal, type DecimalValue, maxExponentDigits } from '../decimal-value.js';
import { nullNumber, nullString, numericValue, type SqlValue } from './sql-value.js';

export type BoundOperator = '<' | '<=' | '>' | '>=';

/** `value op text` for a bound's decimal text: true only for numbers and decimal strings that compare so. */
export function compileBoundCompare(op: BoundOperator, text: string, value: Pick<SqlValue, 's' | 'n'>): string {
  const bound = decimalValue(text);
  if (bound === null) return '0';
  const hasNumber = value.n !== nullNumber;
  const number = hasNumber ? numberSide(op, text, bound, value.n) : '0';
  if (value.s === nullString) return number;
  const rounded = Number(text);
  if (!Number.isFinite(rounded)) {
    const string = `(coalesce(match(${value.s}, ${decimalPattern}), 0) AND ${exactStringSide(op, bound, value.s)})`;
    return number === '0' ? string : `(${number} OR ${string})`;
  }
  // The value's Float64 (as numericValue reads numbers and decimal strings, one expression for
  // every comparison of the column) decides every row more than two units in the last place
  // from the rounded bound, more than parsing can be off by; rows nearer take the exact path,
  // which the lazily evaluated branch of `if` computes for those rows alone.
  const f = numericValue(value);
  const lower = sqlNumber(nextDouble(nextDouble(rounded, -1), -1));
  const upper = sqlNumber(nextDouble(nextDouble(rounded, 1), 1));
  const exactString = exactStringSide(op, bound, value.s);
  const near = hasNumber ? `multiIf(${value.n} IS NOT NULL, ${number}, ${exactString})` : exactString;
  return `if(coalesce(${f} BETWEEN ${lower} AND ${upper}, 0), ${near}, coalesce(${f} ${op} ${sqlNumber(rounded)}, 0))`;
}

/** `n = L` for a number literal's text, exact: `0` when no double has the literal's value. */
export function compileNumberEquals(text: string, n: string): string {
  const exact = exactNumber(text);
  return exact === null || n === nullNumber ? '0' : `coalesce(${n} = ${sqlNumber(exact)}, 0)`;
}

/** The Float64 side: one comparison with the rounded bound, its operator fixed for d = Ld. */
function numberSide(op: BoundOperator, text: string, bound: DecimalValue, n: string): string {
  const rounded = Number(text);
  if (!Number.isFinite(rounded)) {
    // beyond every double: every number is below a positive bound, above a negative one
    const below = bound.sign > 0;
    return (op === '<' || op === '<=') === below ? `isNotNull(${n})` : '0';
  }
  const order = compareDecimals(numberDecimal(rounded), bound);
  return `coalesce(${n} ${adjustedOperator(op, order)} ${sqlNumber(rounded)}, 0)`;
}

/** The Float64 operator that gives `d op L` from `d ? Ld`, knowing how Ld's text compares with L. */
function adjustedOperator(op: BoundOperator, order: -1 | 0 | 1): BoundOperator {
  if (order === 0) return op;
  // order < 0: d = Ld is below L, so it counts for `<` and `<=` and not for `>` and `>=`.
  if (order < 0) return op === '<' || op === '<=' ? '<=' : '>';
  return op === '<' || op === '<=' ? '<' : '>=';
}

// The SQL twin of decimalTextPattern: [sign, integer, fraction, exponent sign, exponent digits].
const decimalGroups = sqlString('^(-?)([0-9]+)(?:\\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$');

// D17's "entirely a decimal number", as the evaluator's decimalTextPattern.
const decimalPattern = sqlString('^-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?$');

/** The neighbouring double of a finite `x` towards +inf (`dir` 1) or -inf (-1); finite results only. */
function nextDouble(x: number, dir: 1 | -1): number {
  if (x === 0) return dir * Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, x > 0 === dir > 0 ? bits + 1n : bits - 1n);
  const next = view.getFloat64(0);
  return Number.isFinite(next) ? next : x;
}

/**
 * The exact string side: the string's parts (as decimalValue finds them) against the bound's.
 * Lambdas bind the regex groups `g` and the digits without leading zeros `m`; the outer one, over
 * a constant, only keeps the regex inside this comparison's own expression.
 * Magnitudes compare as tuples (exponent, digits): digit strings without trailing zeros order
 * bytewise as their values do. A string that is not a decimal has no groups and matches nothing.
 */
function exactStringSide(op: BoundOperator, bound: DecimalValue, s: string): string {
  const exp = `if(length(trimLeft(g[5], '0')) > ${maxExponentDigits}, 1${'0'.repeat(maxExponentDigits)}, toInt64OrZero(g[5])) * if(g[4] = '-', -1, 1)`;
  const magnitude = `tuple(toInt64(length(m)) - length(g[3]) + ${exp}, trimRight(m, '0'))`;
  const boundMagnitude = `tuple(${bound.exponent.toString()}, ${sqlString(bound.digits)})`;
  const up = op === '>' || op === '>=';
  let predicate: string;
  switch (bound.sign) {
    case 0:
      predicate = op === '>' ? "m != '' AND g[1] = ''" : op === '<' ? "m != '' AND g[1] = '-'" : `notEmpty(g) AND (m = '' OR g[1] = ${up ? "''" : "'-'"})`;
      break;
    case 1:
      // above a positive bound only positives of greater magnitude; below it zero, negatives and smaller ones
      predicate = up ? `m != '' AND g[1] = '' AND ${magnitude} ${op} ${boundMagnitude}` : `notEmpty(g) AND (m = '' OR g[1] = '-' OR ${magnitude} ${op} ${boundMagnitude})`;
      break;
    case -1:
      // below a negative bound only negatives of greater magnitude; above it zero, positives and smaller ones
      predicate = up ? `notEmpty(g) AND (m = '' OR g[1] = '' OR ${boundMagnitude} ${op} ${magnitude})` : `m != '' AND g[1] = '-' AND ${boundMagnitude} ${op} ${magnitude}`;
      break;
    default:
      return assertNever(bound.sign);
  }
  // The regex runs in lambdas over a constant: outside them, the same node in another comparison
  // of the column would be shared, and the engine computes shared nodes for every row.
  return `arrayExists(e -> arrayExists(g -> arrayExists(m -> ${predicate}, [trimLeft(concat(g[2], g[3]), '0')]), [extractGroups(assumeNotNull(concat(${s}, e)), ${decimalGroups})]), [''])`;
}

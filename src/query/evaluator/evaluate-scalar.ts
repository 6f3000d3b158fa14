/** Scalar expressions (docs "Scalar expressions", D26): `eval` here, alert templates later. */
import { assertNever } from '../../core/index.js';
import type { Scalar, ScalarBinaryOperator } from '../ast.js';
import { scalarNumberLiteral } from '../decimal-value.js';
import { compareUtf8 } from './compare-table-values.js';
import { cellOrNull, type ScalarValue, type TableValue } from './eval-table.js';
import { plainColumnName } from './resolve-column-name.js';
import { callScalarFunction } from './scalar-functions.js';

/**
 * Evaluates an expression over one row. A missing column reads as null; operands of the wrong
 * type give null rather than an error (no implicit conversion).
 */
export function evaluateScalar(expr: Scalar, row: Readonly<Record<string, TableValue>>): ScalarValue {
  switch (expr.kind) {
    case 'literal':
      // Numbers as ingest reads them (D3): an integer beyond 2^53 keeps its digits as a string.
      return typeof expr.value === 'number' ? scalarNumberLiteral(expr.text ?? String(expr.value)) : expr.value;
    case 'columnRef':
      return cellOrNull(row, plainColumnName(expr.column, 'a scalar expression'));
    case 'unary': {
      const v = evaluateScalar(expr.operand, row);
      if (expr.op === '-') return typeof v === 'number' ? -v : null;
      return typeof v === 'boolean' ? !v : null;
    }
    case 'binary':
      return applyBinary(expr.op, evaluateScalar(expr.left, row), evaluateScalar(expr.right, row));
    case 'scalarCall':
      return callScalarFunction(
        expr.name,
        expr.args.map((a) => evaluateScalar(a, row)),
        expr.span,
      );
    default:
      return assertNever(expr, 'scalar expression');
  }
}

/** A scalar value as a table cell: booleans become `"true"` / `"false"`. */
export function toTableValue(v: ScalarValue): TableValue {
  return typeof v === 'boolean' ? String(v) : v;
}

function applyBinary(op: ScalarBinaryOperator, a: ScalarValue, b: ScalarValue): ScalarValue {
  switch (op) {
    case '+':
    case '-':
    case '*':
    case '/':
      return typeof a === 'number' && typeof b === 'number' ? arithmetic(op, a, b) : null;
    case '==':
      return scalarEquals(a, b);
    case '!=':
      return !scalarEquals(a, b);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const order = compareSameType(a, b);
      if (order === null) return null;
      return op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
    }
    case 'and':
      // True if both are true, false if both are booleans but not both true, else null.
      return typeof a === 'boolean' && typeof b === 'boolean' ? a && b : null;
    case 'or':
      return typeof a === 'boolean' && typeof b === 'boolean' ? a || b : null;
    default:
      return assertNever(op, 'scalar operator');
  }
}

/**
 * Arithmetic on two numbers. Division by zero is null (docs); so is any other result that is not
 * a finite number (overflow to infinity), because tables and JSON hold only finite numbers.
 */
function arithmetic(op: '+' | '-' | '*' | '/', a: number, b: number): number | null {
  if (op === '/' && b === 0) return null;
  const result = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b;
  return Number.isFinite(result) ? result : null;
}

/** `==`: the same type and value (`1 == "1"` is false, `null == null` is true). */
function scalarEquals(a: ScalarValue, b: ScalarValue): boolean {
  return typeof a === typeof b && a === b;
}

// `<` and friends: two numbers numerically or two strings by UTF-8 bytes; other pairs are null.
function compareSameType(a: ScalarValue, b: ScalarValue): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareUtf8(a, b);
  return null;
}

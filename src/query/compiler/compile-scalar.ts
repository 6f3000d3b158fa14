/**
 * Compiles scalar expressions (eval; docs "Scalar expressions", D26) to triples of SQL
 * expressions: a string, a number and a boolean, at most one non-null. Wrong types give null,
 * never an engine error, exactly as in the evaluator.
 */
import { assertNever, sqlNumber, sqlString } from '../../core/index.js';
import type { Scalar, ScalarBinary, ScalarCall } from '../ast.js';
import { plainColumnName } from '../column-names.js';
import { scalarNumberLiteral } from '../decimal-value.js';
import { resolveColumn, type SqlEnv } from './sql-env.js';
import { finiteOrNull, nullBoolean, nullNumber, nullString, type SqlScalar } from './sql-value.js';

const nothing: SqlScalar = { s: nullString, n: nullNumber, b: nullBoolean };

const str = (expr: string): SqlScalar => ({ s: `CAST(${expr}, 'Nullable(String)')`, n: nullNumber, b: nullBoolean });
// Arithmetic that overflows gives null, like the evaluator: tables hold finite numbers only.
const num = (expr: string): SqlScalar => ({ s: nullString, n: `CAST(${finiteOrNull(expr)}, 'Nullable(Float64)')`, b: nullBoolean });
const bool = (expr: string): SqlScalar => ({ s: nullString, n: nullNumber, b: `CAST(${expr}, 'Nullable(UInt8)')` });

/** Compiles one scalar expression against the stage's columns. */
export function compileScalar(expr: Scalar, env: SqlEnv, indexNames: ReadonlyMap<string, string>): SqlScalar {
  const recurse = (e: Scalar): SqlScalar => compileScalar(e, env, indexNames);
  switch (expr.kind) {
    case 'literal': {
      const value = typeof expr.value === 'number' ? scalarNumberLiteral(expr.text ?? String(expr.value)) : expr.value;
      if (value === null) return nothing;
      if (typeof value === 'number') return num(sqlNumber(value));
      if (typeof value === 'string') return str(sqlString(value));
      return bool(value ? '1' : '0');
    }
    case 'columnRef': {
      const name = plainColumnName(expr.column);
      if (name === null) return nothing;
      const { value } = resolveColumn(env, name, indexNames);
      return { s: value.s, n: value.n, b: nullBoolean };
    }
    case 'unary': {
      const x = recurse(expr.operand);
      return expr.op === '-' ? num(`-(${x.n})`) : bool(`if(${x.b} IS NULL, NULL, 1 - ${x.b})`);
    }
    case 'binary':
      return compileBinary(expr, recurse(expr.left), recurse(expr.right));
    case 'scalarCall':
      return compileCall(expr, expr.args.map(recurse));
    default:
      return assertNever(expr);
  }
}

function compileBinary(expr: ScalarBinary, a: SqlScalar, b: SqlScalar): SqlScalar {
  switch (expr.op) {
    case '+':
    case '-':
    case '*':
      return num(`(${a.n}) ${expr.op} (${b.n})`);
    case '/':
      return num(`if((${b.n}) = 0, NULL, (${a.n}) / (${b.n}))`);
    case '==':
      return bool(equalSql(a, b));
    case '!=':
      return bool(`1 - ${equalSql(a, b)}`);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return bool(`multiIf(${a.n} IS NOT NULL AND ${b.n} IS NOT NULL, ${a.n} ${expr.op} ${b.n}, ` + `${a.s} IS NOT NULL AND ${b.s} IS NOT NULL, ${a.s} ${expr.op} ${b.s}, NULL)`);
    case 'and':
    case 'or':
      return bool(`if(${a.b} IS NULL OR ${b.b} IS NULL, NULL, ${a.b} ${expr.op.toUpperCase()} ${b.b})`);
    default:
      return assertNever(expr.op);
  }
}

// Same type and same value; null equals null (docs).
function equalSql(a: SqlScalar, b: SqlScalar): string {
  const isNull = (x: SqlScalar) => `(${x.s} IS NULL AND ${x.n} IS NULL AND ${x.b} IS NULL)`;
  return (
    `multiIf(${a.b} IS NOT NULL AND ${b.b} IS NOT NULL, ${a.b} = ${b.b}, ` +
    `${a.n} IS NOT NULL AND ${b.n} IS NOT NULL, ${a.n} = ${b.n}, ` +
    `${a.s} IS NOT NULL AND ${b.s} IS NOT NULL, ${a.s} = ${b.s}, ` +
    `${isNull(a)} AND ${isNull(b)}, 1, 0)`
  );
}

/** The text of a scalar for concat: strings, numbers canonically, booleans as true/false. */
function scalarText(x: SqlScalar): string {
  return `multiIf(${x.b} IS NOT NULL, if(${x.b} = 1, 'true', 'false'), ${x.s} IS NOT NULL, ${x.s}, toString(${x.n} + 0))`;
}

function isNullScalar(x: SqlScalar): string {
  return `(${x.s} IS NULL AND ${x.n} IS NULL AND ${x.b} IS NULL)`;
}

function compileCall(call: ScalarCall, args: SqlScalar[]): SqlScalar {
  const [x, y, z] = args as [SqlScalar, SqlScalar, SqlScalar];
  switch (call.name) {
    case 'if':
      return {
        s: `multiIf(${x.b} = 1, ${y.s}, ${x.b} = 0, ${z.s}, NULL)`,
        n: `multiIf(${x.b} = 1, ${y.n}, ${x.b} = 0, ${z.n}, NULL)`,
        b: `multiIf(${x.b} = 1, ${y.b}, ${x.b} = 0, ${z.b}, NULL)`,
      };
    case 'coalesce': {
      const pick = (part: keyof SqlScalar): string => `multiIf(${args.map((a) => `NOT ${isNullScalar(a)}, ${a[part]}`).join(', ')}, NULL)`;
      return { s: pick('s'), n: pick('n'), b: pick('b') };
    }
    case 'math.abs':
      return num(`abs(${x.n})`);
    case 'math.round':
      // half away from zero, as the evaluator; ClickHouse's round() rounds half to even
      return num(`sign(${x.n}) * floor(abs(${x.n}) + 0.5)`);
    case 'math.floor':
      return num(`floor(${x.n})`);
    case 'math.ceil':
      return num(`ceil(${x.n})`);
    case 'lower':
      return str(`lower(${x.s})`);
    case 'upper':
      return str(`upper(${x.s})`);
    case 'len':
      return num(`toFloat64(lengthUTF8(${x.s}))`);
    case 'concat':
      return str(`if(${args.map(isNullScalar).join(' OR ')}, NULL, concat(${args.map(scalarText).join(', ')}, ''))`);
    default:
      // the parser accepts only the functions of `scalarFunctions`
      return nothing;
  }
}

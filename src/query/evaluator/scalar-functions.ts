/** The scalar functions of D26. Each takes already-evaluated arguments; wrong types give null. */
import { QueryAnalysisError, type Span } from '../../core/index.js';
import { scalarFunctions } from '../ast.js';
import type { ScalarValue } from './eval-table.js';
import { valueText } from './value-text.js';

/** Calls a scalar function by name; an unknown name or a wrong argument count throws (the analyzer's job). */
export function callScalarFunction(name: string, args: readonly ScalarValue[], span: Span): ScalarValue {
  const arity = Object.hasOwn(scalarFunctions, name) ? scalarFunctions[name] : undefined;
  if (arity === undefined) throw new QueryAnalysisError(`unknown scalar function ${name}`, { span });
  if (args.length < arity.min || (arity.max !== null && args.length > arity.max)) {
    throw new QueryAnalysisError(`${name} takes ${describeArity(arity)} arguments, not ${args.length}`, { span });
  }
  const [a = null, b = null, c = null] = args;
  switch (name) {
    case 'if':
      return a === true ? b : a === false ? c : null;
    case 'coalesce':
      return args.find((v) => v !== null) ?? null;
    case 'math.abs':
      return typeof a === 'number' ? Math.abs(a) : null;
    case 'math.round':
      return typeof a === 'number' ? roundHalfAwayFromZero(a) : null;
    case 'math.floor':
      return typeof a === 'number' ? Math.floor(a) : null;
    case 'math.ceil':
      return typeof a === 'number' ? Math.ceil(a) : null;
    case 'lower':
      return typeof a === 'string' ? mapAsciiLetters(a, 'A', 'Z', 0x20) : null;
    case 'upper':
      return typeof a === 'string' ? mapAsciiLetters(a, 'a', 'z', -0x20) : null;
    case 'len':
      // Characters are code points: an astral character is one, not two UTF-16 units.
      return typeof a === 'string' ? Array.from(a).length : null;
    case 'concat':
      return args.some((v) => v === null) ? null : args.map(concatText).join('');
    default:
      // `scalarFunctions` lists a function this switch lacks: a bug, not user input.
      // eslint-disable-next-line no-restricted-syntax -- internal invariant: the analyzer knows only implemented functions
      throw new Error(`scalar function ${name} has no implementation`);
  }
}

function describeArity(arity: { readonly min: number; readonly max: number | null }): string {
  if (arity.max === null) return `at least ${arity.min}`;
  return arity.min === arity.max ? `${arity.min}` : `${arity.min} to ${arity.max}`;
}

// Math.round rounds halves up (toward +∞), so round the magnitude and restore the sign.
function roundHalfAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** Shifts the ASCII letters from..to by `delta`; every other character, non-ASCII included, stays. */
function mapAsciiLetters(s: string, from: string, to: string, delta: number): string {
  const lo = from.charCodeAt(0);
  const hi = to.charCodeAt(0);
  return Array.from(s, (c) => {
    const code = c.charCodeAt(0);
    return c.length === 1 && code >= lo && code <= hi ? String.fromCharCode(code + delta) : c;
  }).join('');
}

// Numbers as their canonical text; booleans as they would be written into a table.
function concatText(v: ScalarValue): string {
  if (typeof v === 'boolean') return String(v);
  return valueText(v ?? '');
}

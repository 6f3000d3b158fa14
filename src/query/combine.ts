import type { Span } from '../core/index.js';
import type { Filter, ValueExpr } from './ast.js';

/**
 * Joins operands into one n-ary node, flattening operands of the same kind: `a and (b and c)`
 * and `(a and b) and c` are the same filter, and the canonical tree holds no `and` directly
 * inside an `and` (nor `or` in `or`). One operand is returned as it is. The node spans the
 * operands as written, parentheses included.
 */
export function combine(kind: 'and' | 'or', operands: readonly Filter[]): Filter {
  const flat = operands.flatMap((operand) => (operand.kind === kind ? operand.operands : [operand]));
  return flat.length === 1 && flat[0] ? flat[0] : { kind, operands: flat, span: outerSpan(operands) };
}

/** `combine` for value groups (D15). */
export function combineValues(kind: 'valueAnd' | 'valueOr', operands: readonly ValueExpr[]): ValueExpr {
  const flat = operands.flatMap((operand) => (operand.kind === kind ? operand.operands : [operand]));
  return flat.length === 1 && flat[0] ? flat[0] : { kind, operands: flat, span: outerSpan(operands) };
}

function outerSpan(nodes: readonly { readonly span: Span }[]): Span {
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  // eslint-disable-next-line no-restricted-syntax -- internal invariant of the callers
  if (!first || !last) throw new Error('combine needs at least one operand');
  return { start: first.span.start, end: last.span.end };
}

import { ValidationError } from '../core/index.js';
import { parseScalar } from '../query/index.js';

/** A piece of a template value: literal text, or the expression text of a `{{ … }}`. */
export type TemplatePart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'expression'; readonly text: string; readonly offset: number };

/**
 * Splits a template value at its `{{ … }}` placeholders (detections.md E9); `offset` is where the
 * expression text starts in the value. Null with the offset of an unclosed `{{`.
 */
export function splitTemplate(value: string): { parts: TemplatePart[] } | { unclosedAt: number } {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (;;) {
    const open = value.indexOf('{{', at);
    if (open < 0) break;
    const close = value.indexOf('}}', open + 2);
    if (close < 0) return { unclosedAt: open };
    if (open > at) parts.push({ kind: 'text', text: value.slice(at, open) });
    parts.push({ kind: 'expression', text: value.slice(open + 2, close), offset: open + 2 });
    at = close + 2;
  }
  if (at < value.length) parts.push({ kind: 'text', text: value.slice(at) });
  return { parts };
}

/**
 * Checks that every `{{ expr }}` of a template value holds a scalar expression of the query
 * language. ValidationError on `field` with the position inside the value (`at 1:14`).
 */
export function checkTemplateValue(value: string, field: string): void {
  const split = splitTemplate(value);
  if ('unclosedAt' in split) throw new ValidationError(`unclosed '{{' at ${positionIn(value, split.unclosedAt)}`, { field });
  for (const part of split.parts) {
    if (part.kind !== 'expression') continue;
    if (part.text.trim() === '') throw new ValidationError(`empty '{{ }}' at ${positionIn(value, part.offset - 2)}`, { field });
    const parsed = parseScalar(part.text);
    const problem = parsed.diagnostics.find((d) => d.severity === 'error');
    if (problem !== undefined) {
      const offset = part.offset + (problem.span?.start.offset ?? 0);
      throw new ValidationError(`${problem.message} at ${positionIn(value, offset)}`, { field });
    }
  }
}

/** The 1-based `line:column` of an offset in a text. */
function positionIn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `${line}:${column}`;
}

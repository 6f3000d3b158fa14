import { columnText } from '../editor/query-completions.js';
import { firstPipe } from './scoped-query.js';

/** A value as an exact term: numbers bare, text double-quoted (exact case, `*` literal). */
export function valueTerm(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `"${String(value)}"`;
  const escaped = value.replace(/[\\"*\n\r\t]|[\u0000-\u001f\u007f]/g, (c) => {
    switch (c) {
      case '\\':
      case '"':
      case '*':
        return `\\${c}`;
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      default:
        return `\\u{${c.charCodeAt(0).toString(16)}}`;
    }
  });
  return `"${escaped}"`;
}

/**
 * The query with `field = value` (or `not field = value`) added to its filter, before any
 * pipeline. A filter holding `or` is parenthesised first so the new clause narrows all of it;
 * after a comment the clause goes on a new line.
 */
export function addFilterClause(query: string, field: string, value: string | number, negate: boolean): string {
  const pipe = firstPipe(query);
  const filter = (pipe === -1 ? query : query.slice(0, pipe)).trimEnd();
  const pipeline = pipe === -1 ? '' : query.slice(pipe);
  const clause = `${negate ? 'not ' : ''}${columnText(field)} = ${valueTerm(value)}`;
  let next = clause;
  if (filter.trim() !== '') {
    const comment = filter.includes('#');
    const base = /\bor\b/i.test(filter) ? `(${filter}${comment ? '\n' : ''})` : filter;
    next = `${base}${comment && base === filter ? '\n' : ' '}${clause}`;
  }
  return pipeline ? `${next} ${pipeline}` : next;
}

import { formatPosition } from '../core/index.js';
import type { Diagnostic } from '../core/index.js';
import type { QueryDiagnostic } from './syntax-diagnostic.js';

/**
 * Renders a diagnostic for a person reading the query text: the message with its position, the
 * source line, carets under the culprit (as many as it is long on that line, at least one) and
 * the hint, when the diagnostic has one, on its own line:
 *
 *     expected a value after ':' at 1:12
 *       eventName: | count
 *                  ^
 *     hint: write 'col: *' to test that the column exists
 */
export function formatDiagnostic(text: string, diagnostic: Diagnostic | QueryDiagnostic): string {
  const lines: string[] = [];
  const span = diagnostic.span;
  lines.push(span ? `${diagnostic.message} at ${formatPosition(span.start)}` : diagnostic.message);
  if (span) {
    const lineStart = span.start.offset - (span.start.column - 1);
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const source = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const before = text.slice(lineStart, span.start.offset);
    const under = text.slice(span.start.offset, Math.min(span.end.offset, lineStart + source.length));
    // Keep tabs so the caret lines up under tab-indented text; other characters become spaces.
    const pad = Array.from(before, (ch) => (ch === '\t' ? '\t' : ' ')).join('');
    lines.push(`  ${printable(source)}`, `  ${pad}${'^'.repeat(Math.max(1, Array.from(under).length))}`);
  }
  if ('hint' in diagnostic && diagnostic.hint !== undefined) lines.push(`hint: ${diagnostic.hint}`);
  return lines.join('\n');
}

/** Control characters would garble the terminal; show each as one `?` so carets stay aligned. */
function printable(line: string): string {
  return line.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '?');
}

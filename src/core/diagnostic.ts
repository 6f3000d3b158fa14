import type { Span } from './span.js';

export type DiagnosticSeverity = 'error' | 'warning';

/**
 * One problem found in user input (a query, a rule file, a config, a log line). Checks return
 * every diagnostic they find so the user can fix them all in one go; exceptions are for failures.
 */
export interface Diagnostic {
  readonly severity: DiagnosticSeverity;
  readonly code: string;
  readonly message: string;
  /** Where in the text, when the input is text. */
  readonly span?: Span;
  /** The field the problem is about, dotted (`timestamp_fields[2]`), when the input is structured. */
  readonly field?: string;
}

export function errorDiagnostic(code: string, message: string, where: { span?: Span; field?: string } = {}): Diagnostic {
  return { severity: 'error', code, message, ...where };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

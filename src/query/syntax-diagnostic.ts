import { ErrorCodes, errorDiagnostic, type Diagnostic, type Span } from '../core/index.js';

/**
 * A syntax problem. The hint (how to fix it) is a separate field rather than part of the message,
 * so the message stays one short statement that `QuerySyntaxError` can suffix with `at line:col`
 * and `formatDiagnostic` can print the hint on its own line. It is still a plain `Diagnostic` for
 * anyone who ignores hints.
 */
export interface QueryDiagnostic extends Diagnostic {
  readonly hint?: string;
}

export function syntaxDiagnostic(message: string, span: Span, hint?: string): QueryDiagnostic {
  const d = errorDiagnostic(ErrorCodes.querySyntax, message, { span });
  return hint === undefined ? d : { ...d, hint };
}

import type { TextDiagnostic } from './types.js';

/** A non-2xx answer of the API: its status, its `error` text and, for a query or rule file, every problem. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly diagnostics: readonly TextDiagnostic[] = [],
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The key was refused: the console signs out. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

/** Reads an error answer: `{"error": "..."}` with optional `diagnostics`, or whatever text came. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let message = `${response.status} ${response.statusText}`.trim();
  let diagnostics: TextDiagnostic[] = [];
  try {
    const body = JSON.parse(text) as { error?: unknown; diagnostics?: unknown };
    if (typeof body.error === 'string') message = body.error;
    if (Array.isArray(body.diagnostics)) diagnostics = body.diagnostics as TextDiagnostic[];
  } catch {
    if (text) message = text.slice(0, 300);
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(response.status, message, diagnostics, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

/** The positioned problems an error carries (a query's or a rule file's), none for other errors. */
export function diagnosticsOf(error: unknown): readonly TextDiagnostic[] {
  return error instanceof ApiError ? error.diagnostics : [];
}

/** The text of anything thrown, for the page to show. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

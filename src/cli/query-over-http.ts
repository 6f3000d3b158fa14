/**
 * `vigil query` against a running server: one `blocking_query`, its rows turned back into the
 * shape the printer takes, and query errors back into diagnostics with spans for caret lines.
 */
import { formatRfc3339Ns, type Diagnostic, type Position } from '../core/index.js';

export interface PrintableResult {
  readonly columns: readonly string[];
  readonly rows: readonly { readonly rowId: { t: string; s: string } | null; readonly columns: Readonly<Record<string, unknown>> }[];
}

export interface HttpQueryRequest {
  readonly tenant: string;
  readonly text: string;
  readonly range: { readonly startNs: bigint; readonly endNs: bigint };
  readonly maxRows: number;
  readonly oldestFirst: boolean;
}

interface WireDiagnostic {
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  hint?: string;
}

/** Runs the query on the server; a query error comes back as its diagnostics. */
export async function queryOverHttp(url: string, apiKey: string, request: HttpQueryRequest): Promise<PrintableResult | { diagnostics: Diagnostic[] }> {
  const response = await fetch(`${url}/v1/blocking_query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      tenant_id: request.tenant,
      query: request.text,
      start_time: formatRfc3339Ns(request.range.startNs),
      end_time: formatRfc3339Ns(request.range.endNs),
      max_rows: request.maxRows,
      scan_back_to_front: !request.oldestFirst,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    error?: string;
    diagnostics?: WireDiagnostic[];
    results?: { column_ordering: string[]; rows: { row_id: { t: string; s: number }; columns: Record<string, unknown> }[] };
  };
  if (body.diagnostics && body.diagnostics.length > 0) return { diagnostics: body.diagnostics.map((d) => toDiagnostic(request.text, d)) };
  // eslint-disable-next-line no-restricted-syntax -- relays the server's own error answer
  if (!response.ok || !body.results) throw new Error(`server at ${url} answered ${response.status}: ${body.error ?? response.statusText}`);
  const { results } = body;
  // Every row keeps the row_id the server wrote, so --json prints what the API answered.
  return {
    columns: results.column_ordering,
    rows: results.rows.map((row) => ({ rowId: { t: row.row_id.t, s: String(row.row_id.s) }, columns: row.columns })),
  };
}

function toDiagnostic(text: string, d: WireDiagnostic): Diagnostic & { hint?: string } {
  return {
    severity: 'error',
    code: 'query_syntax',
    message: d.message,
    span: { start: position(text, d.line, d.column), end: position(text, d.end_line, d.end_column) },
    ...(d.hint ? { hint: d.hint } : {}),
  };
}

// Offsets from 1-based line and column (columns count UTF-16 units, lines end at \n).
function position(text: string, line: number, column: number): Position {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) break;
    offset = next + 1;
  }
  return { line, column, offset: offset + column - 1 };
}

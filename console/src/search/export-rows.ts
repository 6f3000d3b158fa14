import type { Row } from '../api/types.js';

/** RFC 4180 CSV with a header of the columns; null is empty, numbers as written. */
export function toCsv(columns: readonly string[], rows: readonly Row[]): string {
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    // A leading = + - @ would run as a formula in a spreadsheet: prefix a quote (OWASP CSV
    // injection). Numbers and plain @-names (`@svc.datetime`, `@q.count`) cannot run and stay.
    const inert = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) || /^@[\w.[\]]*$/.test(text);
    const safe = /^[=+\-@\t\r]/.test(text) && !inert ? `'${text}` : text;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = [columns.map(cell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One JSON object a line, columns in order. */
export function toNdjson(columns: readonly string[], rows: readonly Row[]): string {
  let out = '';
  for (const row of rows) {
    const ordered: Record<string, unknown> = {};
    for (const c of columns) if (c in row) ordered[c] = row[c];
    out += `${JSON.stringify(ordered)}\n`;
  }
  return out;
}

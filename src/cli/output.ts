/** Terminal output: aligned tables for people, JSON for scripts. */

/** Prints rows as a left-aligned table with a header line. */
export function printTable(out: NodeJS.WritableStream, headers: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  out.write(`${line(headers)}\n`);
  for (const row of rows) out.write(`${line(row)}\n`);
}

export function printJson(out: NodeJS.WritableStream, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** 1536 → `1.5 KiB`; under 1 KiB a whole number of bytes (rates are fractional: 313.25 → `313 B`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = Math.abs(bytes) < 1024 ? Math.round(bytes) : bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** 12345.6 → `12,346`. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

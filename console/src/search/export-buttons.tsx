import type { Row } from '../api/types.js';
import { toCsv, toNdjson } from './export-rows.js';

/** Saves the table shown (every row received, its columns) as CSV or NDJSON. */
export function ExportButtons(props: { columns: readonly string[]; rows: readonly Row[] }) {
  const save = (kind: 'csv' | 'ndjson'): void => {
    const text = kind === 'csv' ? toCsv(props.columns, props.rows) : toNdjson(props.columns, props.rows);
    const blob = new Blob([text], { type: kind === 'csv' ? 'text/csv' : 'application/x-ndjson' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `vigil-search-${new Date().toISOString().replace(/[:.]/g, '-')}.${kind}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const disabled = props.rows.length === 0;
  return (
    <div class="export-buttons" role="group" aria-label="Export">
      <button type="button" class="secondary" disabled={disabled} onClick={() => save('csv')}>
        Export CSV
      </button>
      <button type="button" class="secondary" disabled={disabled} onClick={() => save('ndjson')}>
        Export NDJSON
      </button>
    </div>
  );
}

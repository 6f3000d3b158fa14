import type { SearchRun } from './search-run.js';

/** "12,400 rows · 3.1 MB scanned · 0.4 s", announced politely to screen readers as it changes. */
export function RunStatus(props: { run: SearchRun }) {
  const { run } = props;
  if (run.status === 'idle') return <p class="run-status" aria-live="polite" />;
  const seconds = ((run.finishedAt ?? Date.now()) - run.startedAt) / 1000;
  const words: Record<SearchRun['status'], string> = { idle: '', running: 'Searching…', completed: 'Done', failed: 'Failed', cancelled: 'Cancelled' };
  return (
    <p class={`run-status ${run.status}`} aria-live="polite" data-status={run.status}>
      <strong>{words[run.status]}</strong> · {run.rows.length.toLocaleString('en-US')} rows · {formatBytes(run.bytesScanned)} scanned
      {run.finishedAt !== null && ` · ${seconds.toFixed(1)} s`}
      {run.truncated && ' · stopped at the memory bound (max_bytes)'}
    </p>
  );
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

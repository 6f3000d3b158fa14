import { TableHead } from '../common/table-head.js';
import { messageOf } from '../api/api-error.js';
import { useEffect, useState } from 'preact/hooks';
import type { IndexObject, IndexStats } from '../api/types.js';
import { Link } from '../app/link.js';
import { useSession } from '../app/session-context.js';
import { formatBytes } from '../search/run-status.js';
import { paramsToSearch, defaultParams } from '../search/search-params.js';

/** Each index with what it holds (events, time span, size) and its retention, which can be changed here. */
export function IndexesPage() {
  const { client } = useSession();
  const [indexes, setIndexes] = useState<IndexObject[] | null>(null);
  const [stats, setStats] = useState<Record<string, IndexStats | string>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    client.listIndexes().then(
      (list) => {
        setIndexes(list);
        for (const index of list) {
          client.indexStats(index.id).then(
            (s) => setStats((all) => ({ ...all, [index.id]: s })),
            (e: unknown) => setStats((all) => ({ ...all, [index.id]: messageOf(e) })),
          );
        }
      },
      (e: unknown) => setError(messageOf(e)),
    );
  }, [client]);

  return (
    <section class="page" aria-labelledby="indexes-title">
      <h1 id="indexes-title">Indexes</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {indexes === null && !error && <p class="loading">Loading indexes…</p>}
      {indexes !== null && indexes.length === 0 && (
        <p>
          No indexes yet: <code>vigil ingest --index NAME --create-index FILE</code> or <code>npm run demo</code> makes one.
        </p>
      )}
      {indexes !== null && indexes.length > 0 && (
        <table class="data">
          <TableHead columns={['Index', 'Events', 'First event', 'Last event', 'On disk', 'Without own time', 'Retention']} />
          <tbody>
            {indexes.map((index) => {
              const s = stats[index.id];
              return (
                <tr key={index.id}>
                  <td>
                    <Link href={`/search${paramsToSearch({ ...defaultParams, index: index.name, range: { kind: 'all' } })}`}>{index.name}</Link>
                    {index.description && <div class="hint">{index.description}</div>}
                  </td>
                  {typeof s === 'string' ? (
                    <td colSpan={5} class="error">
                      {s}
                    </td>
                  ) : s ? (
                    <>
                      <td class="number">{s.events.toLocaleString('en-US')}</td>
                      <td>{s.first_event_time ?? '—'}</td>
                      <td>{s.last_event_time ?? '—'}</td>
                      <td class="number">{formatBytes(s.bytes_on_disk)}</td>
                      <td class="number">{s.events_without_time.toLocaleString('en-US')}</td>
                    </>
                  ) : (
                    <td colSpan={5} class="hint">
                      Counting…
                    </td>
                  )}
                  <td>
                    <RetentionEditor index={index} onSaved={(saved) => setIndexes((all) => (all ?? []).map((i) => (i.id === saved.id ? saved : i)))} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RetentionEditor(props: { index: IndexObject; onSaved: (index: IndexObject) => void }) {
  const { client } = useSession();
  const [days, setDays] = useState(props.index.retention_days === null ? '' : String(props.index.retention_days));
  const [message, setMessage] = useState<string | null>(null);
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    const value = days.trim() === '' ? null : Number(days);
    if (value !== null && (!Number.isInteger(value) || value < 1)) return setMessage('whole days from 1, or empty for forever');
    try {
      props.onSaved(await client.updateIndex(props.index.id, { retention_days: value }));
      setMessage('Saved');
    } catch (e) {
      setMessage(messageOf(e));
    }
  };
  return (
    <form class="retention" onSubmit={save}>
      <label>
        <span class="visually-hidden">Retention of {props.index.name} in days (empty: forever)</span>
        <input type="number" min={1} placeholder="forever" value={days} onInput={(e) => setDays((e.currentTarget as HTMLInputElement).value)} size={6} />
      </label>{' '}
      days{' '}
      <button type="submit" class="secondary">
        Save
      </button>
      {message && <span role="status"> {message}</span>}
    </form>
  );
}

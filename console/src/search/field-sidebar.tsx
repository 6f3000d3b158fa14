import { messageOf } from '../api/api-error.js';
import { useState } from 'preact/hooks';
import type { FieldInfo, FieldValues, IndexFields } from '../api/types.js';
import { useSession } from '../app/session-context.js';
import { cellText } from './event-list.js';

export interface FieldSidebarProps {
  readonly fields: IndexFields | null;
  readonly error: string | null;
  /** The search's query (as sent) and range, for the top values of a field. */
  readonly valuesRequest: { query: string; start_time: string; end_time: string } | null;
  readonly chosenColumns: readonly string[];
  readonly onToggleColumn: (column: string) => void;
  readonly onFilter: (column: string, value: string | number, negate: boolean) => void;
}

/** The searched indexes' fields (from the field catalog): type, share of events holding it, top values on demand. */
export function FieldSidebar(props: FieldSidebarProps) {
  const [filter, setFilter] = useState('');
  const fields = (props.fields?.fields ?? []).filter((f) => f.path.toLowerCase().includes(filter.toLowerCase()));
  return (
    <nav class="field-sidebar" aria-label="Fields">
      <h2>Fields</h2>
      <label class="field">
        <span class="visually-hidden">Filter fields</span>
        <input type="search" placeholder="Filter fields" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
      </label>
      {props.error && <p class="error">{props.error}</p>}
      {props.fields && props.fields.fields.length === 0 && <p class="hint">No fields in this range.</p>}
      <ul>
        {fields.slice(0, 300).map((f) => (
          <FieldItem key={f.path} field={f} events={props.fields!.events} {...props} />
        ))}
      </ul>
      {fields.length > 300 && <p class="hint">{fields.length - 300} more: filter to find them.</p>}
    </nav>
  );
}

function FieldItem(props: FieldSidebarProps & { field: FieldInfo; events: number }) {
  const { client } = useSession();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<FieldValues | null>(null);
  const [error, setError] = useState<string | null>(null);
  const share = props.events > 0 ? Math.min(100, (props.field.rows / props.events) * 100) : 0;
  const shown = props.chosenColumns.includes(props.field.path);
  const id = `field-${props.field.path.replace(/[^\w-]/g, '_')}`;

  const toggle = (): void => {
    const next = !open;
    setOpen(next);
    if (next && props.valuesRequest) {
      setValues(null);
      setError(null);
      client.fieldValues({ ...props.valuesRequest, field: props.field.path, limit: 10 }).then(setValues, (e: unknown) => setError(messageOf(e)));
    }
  };

  return (
    <li class="field-item">
      <div class="field-row">
        <button type="button" class="field-name link" aria-expanded={open} aria-controls={id} onClick={toggle}>
          <span class="type-tag" title={props.field.types.join(', ')}>
            {typeBadge(props.field.types)}
          </span>
          {props.field.path}
        </button>
        <span class="share" title={`${props.field.rows.toLocaleString('en-US')} of ${props.events.toLocaleString('en-US')} events`}>
          {share >= 1 || share === 0 ? Math.round(share) : '<1'}%
        </span>
        <button
          type="button"
          class="icon"
          aria-pressed={shown}
          aria-label={`${shown ? 'Hide' : 'Show'} ${props.field.path} as a column`}
          title="Show as a column"
          onClick={() => props.onToggleColumn(props.field.path)}
        >
          ▦
        </button>
      </div>
      {open && (
        <div id={id} class="field-values">
          {error && <p class="error">{error}</p>}
          {!values && !error && <p class="hint">Counting values…</p>}
          {values && (
            <>
              <p class="hint">Top values in {values.events.toLocaleString('en-US')} matching events</p>
              <ul>
                {values.values.map((v) => (
                  <li key={cellText(v.value)}>
                    <span class="value" title={cellText(v.value)}>
                      {cellText(v.value)}
                    </span>
                    <span class="count">{v.count.toLocaleString('en-US')}</span>
                    {(typeof v.value === 'string' || typeof v.value === 'number') && (
                      <>
                        <button
                          type="button"
                          class="icon"
                          aria-label={`Filter for ${props.field.path} = ${cellText(v.value)}`}
                          onClick={() => props.onFilter(props.field.path, v.value as string | number, false)}
                        >
                          =
                        </button>
                        <button
                          type="button"
                          class="icon"
                          aria-label={`Filter out ${props.field.path} = ${cellText(v.value)}`}
                          onClick={() => props.onFilter(props.field.path, v.value as string | number, true)}
                        >
                          ≠
                        </button>
                      </>
                    )}
                  </li>
                ))}
              </ul>
              {values.other_count > 0 && <p class="hint">{values.other_count.toLocaleString('en-US')} other events</p>}
            </>
          )}
        </div>
      )}
    </li>
  );
}

function typeBadge(types: readonly string[]): string {
  const t = types.filter((x) => x !== 'null');
  if (t.length === 0) return '∅';
  if (t.length > 1) return '∗';
  return ({ string: 'T', int64: '#', float64: '#', bool: 'B', uint64: '#' } as Record<string, string>)[t[0]!] ?? '?';
}

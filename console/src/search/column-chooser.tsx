/** The event columns shown instead of the summary line; each chip removes its column. */
export function ColumnChooser(props: { columns: readonly string[]; onRemove: (column: string) => void; onClear: () => void }) {
  if (props.columns.length === 0) return <p class="hint column-hint">Showing a summary of each event. Add columns from the fields or an event (▦).</p>;
  return (
    <div class="column-chooser" role="group" aria-label="Columns shown">
      {props.columns.map((c) => (
        <button type="button" class="chip" key={c} onClick={() => props.onRemove(c)} aria-label={`Remove column ${c}`}>
          {c} ×
        </button>
      ))}
      <button type="button" class="link" onClick={props.onClear}>
        Summary only
      </button>
    </div>
  );
}

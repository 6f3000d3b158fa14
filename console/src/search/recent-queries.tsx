/** The browser's recent queries of this tenant; picking one runs it. */
export function RecentQueries(props: { recent: readonly string[]; onPick: (query: string) => void }) {
  if (props.recent.length === 0) return null;
  return (
    <label class="recent-queries">
      <span class="visually-hidden">Recent queries</span>
      <select
        value=""
        onChange={(e) => {
          const select = e.currentTarget as HTMLSelectElement;
          if (select.value) props.onPick(props.recent[Number(select.value)]!);
          select.value = '';
        }}
      >
        <option value="">Recent…</option>
        {props.recent.map((q, i) => (
          <option key={q} value={String(i)}>
            {q.length > 80 ? `${q.slice(0, 80)}…` : q}
          </option>
        ))}
      </select>
    </label>
  );
}

import type { IndexObject } from '../api/types.js';

/** Which index the search covers (and the sidebar describes): one, or all of the tenant's. */
export function IndexPicker(props: { indexes: readonly IndexObject[]; value: string | null; onChange: (name: string | null) => void }) {
  return (
    <label class="index-picker">
      <span class="visually-hidden">Index</span>
      <select value={props.value ?? ''} onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value || null)}>
        <option value="">All indexes</option>
        {props.indexes.map((i) => (
          <option key={i.id} value={i.name}>
            {i.name}
          </option>
        ))}
      </select>
    </label>
  );
}

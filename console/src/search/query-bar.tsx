import { QueryEditor } from '../editor/query-editor.js';
import type { CompletionVocabulary } from '../editor/query-completions.js';
import { IndexPicker } from './index-picker.js';
import { RecentQueries } from './recent-queries.js';
import type { SearchPageState } from './use-search-page.js';
import { TimeRangePicker } from './time-range-picker.js';

/** Index, query, range and the run/cancel button: what defines a search. */
export function QueryBar(props: { page: SearchPageState; vocabulary: CompletionVocabulary }) {
  const { page } = props;
  const running = page.run.status === 'running';
  return (
    <form
      class="query-bar"
      role="search"
      aria-label="Search"
      onSubmit={(e) => {
        e.preventDefault();
        page.submit();
      }}
    >
      <IndexPicker indexes={page.indexes} value={page.params.index} onChange={(index) => page.change({ index })} />
      <QueryEditor value={page.draft} onChange={page.setDraft} onRun={page.submit} problems={page.run.problems} vocabulary={props.vocabulary} />
      <TimeRangePicker range={page.params.range} zone={page.params.zone} onChange={(range) => page.change({ range })} onZone={(zone) => page.change({ zone })} />
      {running ? (
        // Keyed apart: reusing one element would let the cancel click submit the form once it became "Search".
        <button key="cancel" type="button" class="danger" onClick={page.cancel}>
          Cancel
        </button>
      ) : (
        <button key="search" type="submit">
          Search
        </button>
      )}
      <RecentQueries recent={page.recent} onPick={(query) => (page.setDraft(query), page.change({ query }))} />
    </form>
  );
}

import { useMemo, useState } from 'preact/hooks';
import { AggregationChart } from './aggregation-chart.js';
import { ColumnChooser } from './column-chooser.js';
import { EmptyRangeNotice } from './empty-range-notice.js';
import { EventDetail } from './event-detail.js';
import { EventList } from './event-list.js';
import { ExportButtons } from './export-buttons.js';
import { FieldSidebar } from './field-sidebar.js';
import { addFilterClause } from './filter-clause.js';
import { HistogramChart } from './histogram-chart.js';
import { QueryBar } from './query-bar.js';
import { QueryProblems } from './query-problems.js';
import { ResultTable } from './result-table.js';
import { RunStatus } from './run-status.js';
import { scopeToIndex } from './scoped-query.js';
import { rowLimits } from './search-params.js';
import { isEventTable } from './search-run.js';
import { useSearchPage } from './use-search-page.js';

/** The search page: query bar, field sidebar, histogram, results and the open event. */
export function SearchPage() {
  const page = useSearchPage();
  const { params, run } = page;
  const [selected, setSelected] = useState(-1);
  const [open, setOpen] = useState<number | null>(null);
  const events = isEventTable(run.columns);
  const openRow = open !== null ? run.rows[open] : undefined;

  const vocabulary = useMemo(() => ({ fields: () => page.fields?.fields.map((f) => f.path) ?? [], indexes: () => page.indexes.map((i) => i.name) }), [page.fields, page.indexes]);

  const filter = (column: string, value: string | number, negate: boolean): void => {
    const query = addFilterClause(params.query, column, value, negate);
    page.setDraft(query);
    page.change({ query });
    setOpen(null);
  };
  const toggleColumn = (column: string): void =>
    page.change({ columns: params.columns.includes(column) ? params.columns.filter((c) => c !== column) : [...params.columns, column] });

  const valuesRequest = run.range
    ? { query: scopeToIndex(params.query, params.index).text, start_time: run.range.start.toISOString(), end_time: run.range.end.toISOString() }
    : null;
  const shownColumns = events ? ['@svc.datetime', ...(params.columns.length > 0 ? params.columns : run.columns.filter((c) => c !== '@svc.datetime'))] : run.columns;
  const empty = run.rows.length === 0 && (run.status === 'completed' || run.status === 'cancelled');

  return (
    <section class="search-page" aria-labelledby="search-title">
      <h1 id="search-title" class="visually-hidden">
        Search
      </h1>
      <QueryBar page={page} vocabulary={vocabulary} />
      <QueryProblems run={run} />
      <div class="search-body">
        <FieldSidebar fields={page.fields} error={page.fieldsError} valuesRequest={valuesRequest} chosenColumns={params.columns} onToggleColumn={toggleColumn} onFilter={filter} />
        <div class="results-area">
          <HistogramChart
            histogram={run.histogram}
            zone={params.zone}
            onZoom={(r) => page.change({ range: { kind: 'absolute', start: r.start, end: r.end } })}
            onWidth={page.setChartWidth}
          />
          <div class="results-toolbar">
            <RunStatus run={run} />
            <label class="row-limit">
              <span>Rows</span>
              <select value={String(params.maxRows)} onChange={(e) => page.change({ maxRows: Number((e.currentTarget as HTMLSelectElement).value) })}>
                {rowLimits.map((n) => (
                  <option key={n} value={String(n)}>
                    {n.toLocaleString('en-US')}
                  </option>
                ))}
              </select>
            </label>
            <ExportButtons columns={shownColumns} rows={run.rows} />
          </div>
          {events && <ColumnChooser columns={params.columns} onRemove={toggleColumn} onClear={() => page.change({ columns: [] })} />}
          {empty && (run.columns.length === 0 || events) ? (
            <EmptyRangeNotice
              stats={page.scopeStats}
              index={params.index}
              zone={params.zone}
              hasQuery={params.query.trim() !== ''}
              onAllTime={() => page.change({ range: { kind: 'all' } })}
            />
          ) : events ? (
            <div class={`event-results${openRow ? ' with-detail' : ''}`}>
              <EventList rows={run.rows} columns={params.columns} zone={params.zone} selected={selected} onSelect={setSelected} onOpen={setOpen} />
              {openRow && <EventDetail row={openRow} onFilter={filter} onToggleColumn={toggleColumn} chosenColumns={params.columns} onClose={() => setOpen(null)} />}
            </div>
          ) : run.columns.length > 0 ? (
            <>
              <AggregationChart columns={run.columns} rows={run.rows} zone={params.zone} />
              <ResultTable columns={run.columns} rows={run.rows} selected={selected} onSelect={setSelected} />
            </>
          ) : null}
        </div>
      </div>
    </section>
  );
}

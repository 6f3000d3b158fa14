import type { Row } from '../api/types.js';
import { GridRow, VirtualRows } from '../common/virtual-rows.js';
import { cellText } from './event-list.js';

/** An aggregation's (or a table's) rows with their columns, scrolled virtually. */
export function ResultTable(props: { columns: readonly string[]; rows: readonly Row[]; selected: number; onSelect: (index: number) => void }) {
  const template = props.columns.map(() => 'minmax(8rem, 1fr)').join(' ');
  return (
    <VirtualRows
      class="result-table"
      label="Results"
      rowCount={props.rows.length}
      rowHeight={28}
      activeRow={props.selected}
      onActiveRow={props.onSelect}
      header={
        <div class="grid-header" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
          {props.columns.map((c) => (
            <span role="columnheader" key={c}>
              {c}
            </span>
          ))}
        </div>
      }
      renderRow={(index, active) => (
        <GridRow key={index} index={index} active={active} template={template} height={28} onClick={() => props.onSelect(index)}>
          {props.columns.map((c) => {
            const value = props.rows[index]![c];
            return (
              <span role="gridcell" key={c} class={typeof value === 'number' ? 'number' : undefined}>
                {cellText(value)}
              </span>
            );
          })}
        </GridRow>
      )}
    />
  );
}

import type { Row } from '../api/types.js';
import { GridRow, VirtualRows } from '../common/virtual-rows.js';
import { summaryLine } from './event-tree.js';
import { formatInstant, type TimeZoneChoice } from './time-range.js';

export const eventRowHeight = 28;

export interface EventListProps {
  readonly rows: readonly Row[];
  /** Chosen columns; the summary line when empty. */
  readonly columns: readonly string[];
  readonly zone: TimeZoneChoice;
  readonly selected: number;
  readonly onSelect: (index: number) => void;
  readonly onOpen: (index: number) => void;
}

/** Events newest first: time, then the summary line or the chosen columns; a click opens the event. */
export function EventList(props: EventListProps) {
  const cells = props.columns.length > 0 ? props.columns : ['summary'];
  const template = `13rem ${cells.map(() => 'minmax(8rem, 1fr)').join(' ')}`;
  const header = (
    <div class="grid-header" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
      <span role="columnheader">Time ({props.zone === 'utc' ? 'UTC' : 'local'})</span>
      {cells.map((c) => (
        <span role="columnheader" key={c}>
          {c === 'summary' && props.columns.length === 0 ? 'Event' : c}
        </span>
      ))}
    </div>
  );
  return (
    <VirtualRows
      class="event-list"
      label="Events, newest first"
      rowCount={props.rows.length}
      rowHeight={eventRowHeight}
      activeRow={props.selected}
      onActiveRow={props.onSelect}
      onOpenRow={props.onOpen}
      header={header}
      renderRow={(index, active) => {
        const row = props.rows[index]!;
        const time = String(row['@svc.datetime'] ?? '');
        const date = new Date(time);
        return (
          <GridRow key={index} index={index} active={active} template={template} height={eventRowHeight} onClick={() => (props.onSelect(index), props.onOpen(index))}>
            <span role="gridcell" class="time">
              {Number.isNaN(date.getTime()) ? time : formatInstant(date, props.zone)}
            </span>
            {props.columns.length === 0 ? (
              <span role="gridcell" class="summary">
                {summaryLine(row)}
              </span>
            ) : (
              props.columns.map((c) => (
                <span role="gridcell" key={c}>
                  {cellText(row[c])}
                </span>
              ))
            )}
          </GridRow>
        );
      }}
    />
  );
}

export function cellText(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

import type { ScopeStats } from './search-scope.js';
import { formatInstant, type TimeZoneChoice } from './time-range.js';

/** Instead of a bare empty table: what the searched indexes do hold, and a way to search all of it. */
export function EmptyRangeNotice(props: { stats: ScopeStats | null; index: string | null; zone: TimeZoneChoice; hasQuery: boolean; onAllTime: () => void }) {
  const what = props.index ? `index ${props.index}` : 'the searched indexes';
  const { stats } = props;
  return (
    <div class="empty-notice" role="status">
      <h2>{props.hasQuery ? 'No events match in this range' : 'No events in this range'}</h2>
      {stats && stats.first && stats.last ? (
        <p>
          {what.charAt(0).toUpperCase() + what.slice(1)} {props.index ? 'holds' : 'hold'} {stats.events.toLocaleString('en-US')} events from{' '}
          <time dateTime={stats.first.toISOString()}>{formatInstant(stats.first, props.zone)}</time> to{' '}
          <time dateTime={stats.last.toISOString()}>{formatInstant(stats.last, props.zone)}</time>
          {props.zone === 'utc' ? ' UTC' : ''}.{' '}
          <button type="button" class="link" onClick={props.onAllTime}>
            Search all time
          </button>
        </p>
      ) : stats ? (
        <p>
          {what.charAt(0).toUpperCase() + what.slice(1)} hold no events yet: ingest some with <code>vigil ingest</code> or <code>POST /v1/ingest</code>.
        </p>
      ) : null}
    </div>
  );
}

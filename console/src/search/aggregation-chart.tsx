import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { Row } from '../api/types.js';
import { chartShape } from './chart-shape.js';
import { cellText } from './event-list.js';
import type { TimeZoneChoice } from './time-range.js';

/** A bar or time chart above an aggregation's table, when its shape fits one. */
export function AggregationChart(props: { columns: readonly string[]; rows: readonly Row[]; zone: TimeZoneChoice }) {
  const shape = chartShape(props.columns, props.rows);
  if (!shape) return null;
  if (shape.kind === 'time') return <TimeChart rows={props.rows} time={shape.time} value={shape.value} zone={props.zone} />;
  const max = Math.max(...props.rows.map((r) => Number(r[shape.value])), 0);
  return (
    <figure class="bar-chart">
      <figcaption>
        {shape.value} by {shape.labels.join(', ')}
      </figcaption>
      <ol>
        {props.rows.map((row, i) => {
          const value = Number(row[shape.value]);
          const label = shape.labels.map((l) => cellText(row[l])).join(' · ');
          return (
            <li key={i}>
              <span class="bar-label" title={label}>
                {label}
              </span>
              <span class="bar-track" aria-hidden="true">
                <span class="bar" style={{ width: `${max > 0 ? (Math.max(0, value) / max) * 100 : 0}%` }} />
              </span>
              <span class="bar-value">{value.toLocaleString('en-US')}</span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}

function TimeChart(props: { rows: readonly Row[]; time: string; value: string; zone: TimeZoneChoice }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const points = props.rows.map((r) => [Date.parse(String(r[props.time])) / 1000, Number(r[props.value])] as const).sort((a, b) => a[0] - b[0]);
    const element = host.current!;
    const chart = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: 180,
        legend: { show: false },
        tzDate: (ts) => (props.zone === 'utc' ? uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : new Date(ts * 1000)),
        series: [{}, { label: props.value, stroke: '#1a5fb4', width: 2 }],
        axes: [{ stroke: '#44505c' }, { stroke: '#44505c', grid: { stroke: '#e3e7eb' } }],
      },
      [points.map((p) => p[0]), points.map((p) => p[1])],
      element,
    );
    return () => chart.destroy();
  }, [props.rows, props.time, props.value, props.zone]);
  return (
    <figure class="time-chart">
      <div ref={host} role="img" aria-label={`${props.value} over ${props.time}`} />
      <figcaption>
        {props.value} over {props.time}
      </figcaption>
    </figure>
  );
}

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { describeBucket, zoomRange, type HistogramSeries } from './histogram-series.js';
import type { HistogramState } from './search-run.js';
import type { ResolvedRange, TimeZoneChoice } from './time-range.js';

export interface HistogramChartProps {
  readonly histogram: HistogramState;
  readonly zone: TimeZoneChoice;
  /** A drag over the bars: the range to zoom to. */
  readonly onZoom: (range: ResolvedRange) => void;
  readonly onWidth: (width: number) => void;
}

const height = 120;

/** Events per time bucket as bars (uPlot), redrawn as the histogram query runs; drag across bars to zoom. */
export function HistogramChart(props: HistogramChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const series = props.histogram.series;

  useEffect(() => {
    const element = host.current!;
    const width = Math.max(200, element.clientWidth);
    props.onWidth(width);
    const options: uPlot.Options = {
      width,
      height,
      tzDate: (ts) => (latest.current.zone === 'utc' ? uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : new Date(ts * 1000)),
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        { stroke: '#44505c', grid: { show: false }, ticks: { stroke: '#8a96a3' } },
        { stroke: '#44505c', size: 50, grid: { stroke: '#e3e7eb' }, ticks: { show: false }, values: (_u, splits) => splits.map(shortCount) },
      ],
      series: [{}, { label: 'events', fill: '#3584e4', stroke: '#1a5fb4', width: 0, paths: uPlot.paths.bars!({ size: [0.9, 100], align: 1 }), points: { show: false } }],
      hooks: {
        setSelect: [
          (u) => {
            const current = latest.current.histogram.series;
            if (!current || u.select.width < 2) return;
            const from = u.posToVal(u.select.left, 'x');
            const to = u.posToVal(u.select.left + u.select.width, 'x');
            u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
            const range = zoomRange(current, from, to);
            if (range) latest.current.onZoom(range);
          },
        ],
      },
    };
    plot.current = new uPlot(options, [[], []], element);
    const observer = new ResizeObserver(() => {
      const w = Math.max(200, element.clientWidth);
      plot.current?.setSize({ width: w, height });
      latest.current.onWidth(w);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, []);

  useEffect(() => {
    if (!plot.current) return;
    const data: uPlot.AlignedData = series ? [series.starts, series.counts] : [[], []];
    plot.current.setData(data, true);
  }, [series, props.zone]);

  return (
    <figure class="histogram" aria-busy={props.histogram.status === 'running'}>
      <div ref={host} class="histogram-plot" role="img" aria-label={describe(series, props.histogram)} />
      <figcaption>
        <HistogramCaption histogram={props.histogram} series={series} />
      </figcaption>
    </figure>
  );
}

function HistogramCaption(props: { histogram: HistogramState; series: HistogramSeries | null }) {
  const { histogram, series } = props;
  if (histogram.status === 'unavailable') return <span>This server has no histogram endpoint.</span>;
  if (histogram.status === 'failed') return <span class="error">Histogram: {histogram.error}</span>;
  if (!series) return <span>{histogram.status === 'running' ? 'Counting events…' : ''}</span>;
  return (
    <span>
      {series.total.toLocaleString('en-US')} events{histogram.status === 'running' ? ' so far' : ''}, {describeBucket(series.bucketS)} per bar. Drag across bars to zoom.
    </span>
  );
}

function describe(series: HistogramSeries | null, histogram: HistogramState): string {
  if (!series) return histogram.status === 'running' ? 'Event histogram, counting' : 'Event histogram';
  const peak = Math.max(0, ...series.counts);
  return `Event histogram: ${series.total} events in ${series.counts.length} bars of ${describeBucket(series.bucketS)}, at most ${peak} in one bar`;
}

function shortCount(value: number): string {
  if (value >= 1e6) return `${+(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${+(value / 1e3).toFixed(1)}k`;
  return Number.isInteger(value) ? String(value) : '';
}

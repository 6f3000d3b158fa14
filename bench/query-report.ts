/**
 * The query bench's printed report: one row per query, the ripgrep comparison for the text
 * searches, and the targets of issue 3 with PASS/MISS.
 */
import type { QueryTiming } from './query-timing.js';
import type { KindTotals } from './query-engine-recorder.js';

export interface TargetCheck {
  readonly target: string;
  readonly pass: boolean;
  readonly detail: string;
}

/** Rare-token ≥ 10x faster than rg, every indexed query's median ≤ 100 ms, groupbycount ≤ 150 ms. */
export function checkQueryTargets(timings: readonly QueryTiming[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const rare = timings.find((t) => t.query.name === 'rare-token');
  if (rare?.rg) {
    const ratio = rare.rg.latency.median / rare.product.median;
    const sameRows = rare.rg.lines === rare.rows;
    checks.push({
      target: 'rare-token search ≥ 10x faster than ripgrep',
      pass: ratio >= 10 && sameRows,
      detail: `${ratio.toFixed(1)}x (${ms(rare.product.median)} vs rg ${ms(rare.rg.latency.median)}; ${rare.rows} rows, rg ${rare.rg.lines} lines${sameRows ? '' : ': NOT the same rows'})`,
    });
  }
  for (const t of timings.filter((x) => x.indexed)) {
    checks.push({ target: `indexed query ${t.query.name}: median ≤ 100 ms`, pass: t.product.median <= 100, detail: ms(t.product.median) });
  }
  const group = timings.find((t) => t.query.kind === 'groupbycount');
  if (group) {
    checks.push({
      target: `groupbycount over every event ≤ 150 ms`,
      pass: group.product.median <= 150,
      detail: `${ms(group.product.median)} over ${group.engine.rowsRead.toLocaleString('en-US')} rows read`,
    });
  }
  return checks;
}

/** The results table (Markdown, so it pastes into docs/benchmarks-journal.md) and the targets. */
export function formatQueryReport(timings: readonly QueryTiming[], checks: readonly TargetCheck[]): string {
  const lines = [
    '',
    '| query | text | indexed | min | median | p90 | rows | engine: catalog / span / histogram / search (n) | rows read | MB read | one statement | rg median | rg lines | rg / query |',
    '|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const t of timings) {
    const cells = [
      t.query.name,
      `\`${t.query.text.replace(/\|/g, '\\|')}\``,
      t.indexed ? 'yes' : 'no',
      ms(t.product.min),
      `**${ms(t.product.median)}**`,
      ms(t.product.p90),
      count(t.rows),
      engineCell(t),
      count(t.engine.rowsRead),
      (t.bytesScanned / 1e6).toFixed(1),
      t.wholeRange ? ms(t.wholeRange.latency.median) : '–',
      t.rg ? ms(t.rg.latency.median) : '–',
      t.rg ? count(t.rg.lines) : '–',
      t.rg ? `${(t.rg.latency.median / t.product.median).toFixed(1)}x` : '–',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push(
    '',
    'min / median / p90: SearchService.run wall time. engine: median summed wall time of the statements one run',
    'issued, by kind: field-catalog read (planning), written time span (whole-range statements: both reads),',
    'time histogram (sliced searches), search statements (count);',
    'the rest of the median is parsing, compiling, decoding and bookkeeping. rows read / MB read: all statements.',
    'one statement: the same query compiled for the whole range and run as a single statement (no slices).',
  );
  lines.push('', 'ripgrep commands (FILE = the decompressed NDJSON):');
  for (const t of timings) if (t.rg) lines.push(`  ${t.query.name}: ${t.rg.command}${t.query.rgNote ? `   (${t.query.rgNote})` : ''}`);
  lines.push('', 'targets:');
  for (const c of checks) lines.push(`  ${c.pass ? 'PASS' : 'MISS'}  ${c.target}: ${c.detail}`);
  return `${lines.join('\n')}\n`;
}

function engineCell(t: QueryTiming): string {
  const k = t.engine.byKind;
  const optional = (totals: KindTotals): string => (totals.statements > 0 ? ms(totals.wallMs) : '–');
  return `${ms(k.catalog.wallMs)} / ${optional(k.span)} / ${optional(k.histogram)} / ${ms(k.search.wallMs)} (${k.search.statements})`;
}

function ms(x: number): string {
  return x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

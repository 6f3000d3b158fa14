/**
 * `npm run bench -- query --first-run TEXT [--first-run TEXT …]`: each query's first run, each
 * time in a new process. The engine remembers, per part, which granules a filter left empty (its
 * query condition cache), so the repeated runs of the query set time a scan that has learnt
 * where not to look; a user's first search for something new has not. Prints each query's
 * median, minimum and maximum over `runs` processes.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TimeRange } from '../src/search/index.js';

export interface FirstRunOptions {
  readonly dataDir: string;
  readonly range: TimeRange;
  readonly texts: readonly string[];
  readonly runs: number;
  readonly savePath: string;
  readonly header: string;
  readonly log: (line: string) => void;
}

interface FirstRun {
  readonly text: string;
  readonly ms: number[];
  readonly rows: number;
}

const child = fileURLToPath(new URL('./query-first-run-child.ts', import.meta.url));

export function runFirstRunMode(options: FirstRunOptions): number {
  const results: FirstRun[] = options.texts.map((text) => {
    const ms: number[] = [];
    let rows = 0;
    for (let i = 0; i < options.runs; i++) {
      const args = ['--import', 'tsx', child, options.dataDir, String(options.range.startNs), String(options.range.endNs), text];
      const answer = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '{}') as { ms: number; rows: number };
      ms.push(answer.ms);
      rows = answer.rows;
    }
    options.log(`${text}: first runs ${ms.map((m) => m.toFixed(0)).join(', ')} ms, ${rows} rows`);
    return { text, ms, rows };
  });
  const lines = [
    options.header,
    '| query | runs | first run: median | min | max | rows |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => {
      const sorted = [...r.ms].sort((a, b) => a - b);
      const ms = (m: number | undefined) => `${(m ?? 0).toFixed(0)} ms`;
      return `| \`${r.text.replace(/\|/g, '\\|')}\` | ${r.ms.length} | **${ms(sorted[sorted.length >> 1])}** | ${ms(sorted[0])} | ${ms(sorted.at(-1))} | ${r.rows.toLocaleString('en-US')} |`;
    }),
    '',
    'first run: SearchService.run wall time of the query in a new process, after one search that finds nothing.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  writeFileSync(options.savePath, `${JSON.stringify({ range: { startNs: String(options.range.startNs), endNs: String(options.range.endNs) }, results }, null, 2)}\n`);
  options.log(`results saved to ${options.savePath}`);
  return 0;
}

/**
 * `npm run bench -- preview [--days 7] [--rate 60] [--baseline-windows 360]`: rule preview over
 * history (issue 21). An in-process engine gets `days` of synthetic CloudTrail-like events at
 * `rate` a minute, then three rules (5-minute look-back, every minute) are previewed over the
 * whole range: a rare filter, a common filter and an aggregation. For each it prints the windows,
 * the engine statements, wall time and CPU time (this process: chDB runs in it), against a
 * baseline measured in the same run: the same evaluation with one statement per window, the
 * scheduler's way (`runOnce`), over the first `baseline-windows` windows, scaled per window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { cliActor } from '../src/services/index.js';
import { loadConfig } from '../src/config/index.js';
import { newId } from '../src/core/index.js';
import { previewRule, previewWindows, type PreviewWindowResult } from '../src/detections/index.js';
import { openRuntime } from '../src/runtime.js';
import { ruleRecord } from '../src/detections/testing/rule-fixtures.js';

const minute = 60_000;
const names = ['DescribeInstances', 'GetObject', 'PutObject', 'ListBuckets', 'AssumeRole', 'GetCallerIdentity', 'DescribeVolumes', 'Decrypt'];

export async function runPreviewBench(_repoDir: string, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      days: { type: 'string', default: '7' },
      rate: { type: 'string', default: '60' },
      'baseline-windows': { type: 'string', default: '360' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write('npm run bench -- preview [--days 7] [--rate 60 events a minute] [--baseline-windows 360]\n');
    return 0;
  }
  const days = Number(values.days);
  const rate = Number(values.rate);
  const baselineWindows = Number(values['baseline-windows']);
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-preview-bench-'));
  const runtime = await openRuntime(loadConfig({ dataDir }, {}), { withEngine: true, logger: pino({ level: 'warn' }) });
  const { services } = runtime;
  try {
    const tenant = 'bench';
    await services.tenants.ensure(tenant);
    await services.indexes.create(tenant, { name: 'bench' }, cliActor);
    const endMs = Math.floor(Date.now() / minute) * minute - minute;
    const startMs = endMs - days * 1440 * minute;
    log(`ingesting ${days * 1440 * rate} events (${days} days at ${rate} a minute) …`);
    let n = 0;
    for (let batchStart = startMs; batchStart < endMs; batchStart += 1440 * minute) {
      const lines: string[] = [];
      for (let t = batchStart; t < Math.min(batchStart + 1440 * minute, endMs); t += minute) {
        for (let i = 0; i < rate; i++, n++) {
          // CreateAccessKey about twice an hour; AccessDenied on about 1 % of events.
          const rare = n % (30 * rate) === 7;
          lines.push(
            JSON.stringify({
              '@timestamp': new Date(t + Math.floor((i * minute) / rate)).toISOString(),
              eventName: rare ? 'CreateAccessKey' : names[n % names.length],
              user: `user${n % 400}`,
              ...(n % 97 === 0 ? { errorCode: 'AccessDenied' } : {}),
            }),
          );
        }
      }
      const text = lines.join('\n');
      await services.ingest!.ingest(
        { tenantId: tenant, index: 'bench', format: 'ndjson' },
        (async function* () {
          yield text;
        })(),
        cliActor,
      );
    }
    const engine = runtime.engine!;
    let statements = 0;
    for (const method of ['query', 'queryEvents'] as const) {
      const original = engine[method].bind(engine) as (...args: unknown[]) => Promise<unknown>;
      (engine as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        statements++;
        return original(...args);
      };
    }
    const rules = [
      ['rare filter', '@index=bench eventName: CreateAccessKey'],
      ['common filter (1 %)', '@index=bench errorCode: AccessDenied'],
      ['aggregation', '@index=bench errorCode: AccessDenied | stats count() as denials | where denials >= 2'],
    ] as const;
    log(
      `machine: ${availableParallelism()} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    log('rule                   windows  alerted  statements  wall s   CPU s   | baseline: windows  statements  CPU s   | CPU per window: preview  baseline  ratio');
    for (const [label, queryText] of rules) {
      const rule = ruleRecord({ tenantId: tenant, queryText, timeRangeS: 300, runFrequencyS: 60, debounce: true });
      const measure = async (run: () => Promise<{ windowsEvaluated: number; windowsAlerted: number }>) => {
        statements = 0;
        const cpu = process.cpuUsage();
        const wall = performance.now();
        const result = await run();
        const used = process.cpuUsage(cpu);
        return { ...result, statements, wallS: (performance.now() - wall) / 1000, cpuS: (used.user + used.system) / 1e6 };
      };
      const preview = await measure(() =>
        services.previews!.preview(tenant, {
          startTime: new Date(startMs).toISOString(),
          endTime: new Date(endMs).toISOString(),
          rule: { queryText, timeRangeS: 300, runFrequencyS: 60 },
        }),
      );
      const windows = previewWindows(rule, startMs, endMs).slice(0, baselineWindows);
      const deps = { clock: runtime.clock, newId, maxRows: 10_000, maxListed: 500 };
      const baseline = await measure(() =>
        previewRule(
          rule,
          (async function* (): AsyncGenerator<PreviewWindowResult> {
            for (const window of windows) {
              const result = await services.search!.windows.runOnce(
                tenant,
                queryText,
                { startNs: BigInt(window.startMs) * 1_000_000n, endNs: BigInt(window.endMs) * 1_000_000n },
                10_000,
              );
              yield { window, result };
            }
          })(),
          deps,
        ),
      );
      const perPreview = preview.cpuS / preview.windowsEvaluated;
      const perBaseline = baseline.cpuS / baseline.windowsEvaluated;
      log(
        `${label.padEnd(22)} ${String(preview.windowsEvaluated).padStart(7)}  ${String(preview.windowsAlerted).padStart(7)}  ${String(preview.statements).padStart(10)}  ${preview.wallS.toFixed(2).padStart(6)}  ${preview.cpuS.toFixed(2).padStart(6)}   |           ${String(baseline.windowsEvaluated).padStart(7)}  ${String(baseline.statements).padStart(10)}  ${baseline.cpuS.toFixed(2).padStart(6)}   |              ${(perPreview * 1000).toFixed(2).padStart(6)} ms  ${(perBaseline * 1000).toFixed(2).padStart(6)} ms  ${(perPreview / perBaseline).toFixed(3)}`,
      );
    }
    return 0;
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

import type { IngestRunResult } from './ingest-run-result.js';
import type { RawReadBaseline } from './raw-read-baseline.js';
import type { ReplayFile } from './replay.js';

/** The ingest targets of the brief; the table marks each PASS or FAIL. */
export const ingestTargets = {
  cliEventsPerSecond: 40_000,
  diskBytesPerRawByte: 0.7,
  peakRssBytes: 2 * 1024 ** 3,
} as const;

export interface MachineInfo {
  readonly cores: number;
  readonly memoryBytes: number;
  readonly node: string;
  readonly platform: string;
}

export interface TargetCheck {
  readonly name: string;
  readonly value: string;
  readonly pass: boolean;
}

const mb = (bytes: number): number => bytes / 1e6;
const gib = (bytes: number | null): string => (bytes === null ? 'n/a' : `${(bytes / 1024 ** 3).toFixed(2)} GiB`);
const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const ratio = (n: number | null | undefined): string => (n === null || n === undefined ? 'n/a' : n.toFixed(3));

export function eventsPerSecond(r: IngestRunResult): number {
  return r.ingested / r.wallSeconds;
}

export function diskPerRaw(r: IngestRunResult, which: 'before' | 'after'): number | null {
  const snapshot = which === 'before' ? r.storage?.before : r.storage?.after;
  return snapshot ? snapshot.bytesOnDisk / r.rawBytes : null;
}

/** PASS/FAIL of every target that this run measured. */
export function checkTargets(results: readonly IngestRunResult[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const r of results) {
    if (r.path === 'cli') {
      const eps = eventsPerSecond(r);
      checks.push({ name: `cli events/s >= ${int(ingestTargets.cliEventsPerSecond)}`, value: int(eps), pass: eps >= ingestTargets.cliEventsPerSecond });
    }
    for (const which of ['before', 'after'] as const) {
      const value = diskPerRaw(r, which);
      if (value === null) continue;
      const label = which === 'before' ? 'as ingested' : 'after OPTIMIZE FINAL';
      checks.push({
        name: `${r.path} disk bytes per raw byte <= ${ingestTargets.diskBytesPerRawByte} (${label})`,
        value: ratio(value),
        pass: value <= ingestTargets.diskBytesPerRawByte,
      });
    }
    const who = r.path === 'cli' ? 'cli process' : 'server';
    checks.push({ name: `${who} peak RSS <= 2 GiB`, value: gib(r.peakRssBytes), pass: r.peakRssBytes !== null && r.peakRssBytes <= ingestTargets.peakRssBytes });
  }
  return checks;
}

/** The human report: inputs, baseline, one row per path, then the targets. */
export function formatIngestReport(machine: MachineInfo, replay: ReplayFile, baselines: readonly RawReadBaseline[], results: readonly IngestRunResult[]): string {
  const { meta } = replay;
  const rawRead = baselines[0];
  const lines: string[] = [];
  lines.push('');
  lines.push(
    `Vigil ingest benchmark: dataset ${meta.dataset}, ${int(meta.events)} events, ${mb(meta.rawBytes).toFixed(1)} MB NDJSON (${mb(meta.gzipBytes).toFixed(1)} MB gzip), ${int(meta.rawBytes / meta.events)} B/event`,
  );
  lines.push(`  sources: ${meta.sources.map((s) => `${s.name} ${int(s.events)} (${s.epochs} epoch${s.epochs === 1 ? '' : 's'})`).join(', ')}`);
  lines.push(`  event times: ${meta.windowStart} .. ${meta.windowEnd}`);
  lines.push(`  machine: ${machine.cores} cores, ${gib(machine.memoryBytes)} RAM, node ${machine.node}, ${machine.platform}`);
  lines.push(`  MB = 10^6 bytes of decoded NDJSON; events/s and MB/s use wall time`);
  lines.push('');
  for (const b of baselines)
    lines.push(
      `baseline  ${b.command.padEnd(20)} ${b.seconds.toFixed(1).padStart(7)} s  ${mb(meta.rawBytes / b.seconds)
        .toFixed(0)
        .padStart(6)} MB/s  (${int(b.lines)} lines)`,
    );
  lines.push('');
  const header = ['path', 'events', 'rejected', 'wall s', 'events/s', 'MB/s', 'x raw read', 'peak RSS', 'CPU s', 'disk/raw', 'disk/raw opt', 'parts', 'optimize s'];
  const rows = results.map((r) => [
    r.path,
    int(r.ingested),
    int(r.rejected),
    r.wallSeconds.toFixed(1),
    int(eventsPerSecond(r)),
    mb(r.rawBytes / r.wallSeconds).toFixed(1),
    rawRead ? `${(r.wallSeconds / rawRead.seconds).toFixed(1)}x` : 'n/a',
    gib(r.peakRssBytes),
    r.cpuSeconds === null ? 'n/a' : r.cpuSeconds.toFixed(0),
    ratio(diskPerRaw(r, 'before')),
    ratio(diskPerRaw(r, 'after')),
    r.storage ? `${r.storage.before.parts}${r.storage.after ? ` -> ${r.storage.after.parts}` : ''}` : 'n/a',
    r.storage?.optimizeSeconds == null ? 'n/a' : r.storage.optimizeSeconds.toFixed(0),
  ]);
  lines.push(...table([header, ...rows]));
  lines.push('');
  for (const r of results) {
    const extra = [
      r.reportedSeconds !== null ? `ingest-only ${r.reportedSeconds.toFixed(1)} s (${int(r.ingested / r.reportedSeconds)} events/s, excludes process start and engine open)` : null,
      r.clientCpuSeconds !== null ? `bench client CPU ${r.clientCpuSeconds.toFixed(0)} s (gunzip + HTTP on the same cores)` : null,
      r.storage ? `du -sb engine ${duRatio(r, 'before')}${r.storage.after ? `, after optimize ${duRatio(r, 'after')}` : ''}` : null,
      r.storage?.optimizeError ? `OPTIMIZE FINAL FAILED: ${r.storage.optimizeError.split('\n')[0]!.slice(0, 400)}` : null,
      r.cpuSeconds !== null ? `${int(r.ingested / r.cpuSeconds)} events per CPU second of vigil` : null,
      r.load ? `load average (1 min) ${r.load.before.toFixed(1)} before, ${r.load.after.toFixed(1)} after` : null,
      `RSS from ${r.rssSource}`,
      ...r.notes,
    ].filter((s): s is string => s !== null);
    lines.push(`${r.path}: ${extra.join('; ')}`);
    if (r.profile) lines.push(...profileLines(r));
  }
  lines.push('');
  lines.push('targets');
  for (const c of checkTargets(results)) lines.push(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.name.padEnd(58)} ${c.value}`);
  lines.push('');
  return lines.join('\n');
}

function profileLines(r: IngestRunResult): string[] {
  const p = r.profile!;
  const pct = (s: number): string => `${((100 * s) / p.totalSeconds).toFixed(0)}%`;
  return [
    `  main thread: ${p.totalSeconds.toFixed(0)} s profiled, idle ${p.idleSeconds.toFixed(0)} s (${pct(p.idleSeconds)}: waiting on inserts / I/O), GC ${p.garbageCollectorSeconds.toFixed(0)} s (${pct(p.garbageCollectorSeconds)})`,
    ...p.top.map((t) => `    ${t.seconds.toFixed(1).padStart(6)} s  ${t.name}`),
    `  profile: ${p.file}`,
  ];
}

function duRatio(r: IngestRunResult, which: 'before' | 'after'): string {
  const snapshot = which === 'before' ? r.storage?.before : r.storage?.after;
  if (snapshot?.duBytes == null) return 'n/a';
  const outdated = snapshot.outdatedBytes === undefined ? '' : `, of which ${mb(snapshot.outdatedBytes).toFixed(0)} MB outdated parts awaiting removal`;
  return `${mb(snapshot.duBytes).toFixed(0)} MB (${ratio(snapshot.duBytes / r.rawBytes)} per raw byte${outdated})`;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  // Text columns left, figures right.
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
}

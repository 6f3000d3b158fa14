// What the size of an insert costs the embedded engine once merges are paid (issue 22; the
// journal's "What a part's size costs" section). Needs `npm run build` first:
//
//   node bench/part-size-probe.mjs NDJSON[.gz] [ROUNDS] [EVENTS×PARTS,…]   (default 1000x60,10000x6)
//
// For each variant, a fresh ChdbEngine in a temporary dir takes PARTS batches of EVENTS events
// (the file's first lines, encoded before the clock starts) through `insertEvents`, two in
// flight as a shipper's requests or the CLI's pieces are, with merges running. It then waits
// until no merge has run for 3 s, runs `OPTIMIZE TABLE logs FINAL`, and prints the CPU of the
// process (chDB runs in it) per event: while inserting, with the merges after, and with the final
// merge; the merges seen (polled every 100 ms), and the CPU by thread name. Runs of the variants
// alternate, since the machine is shared and a run's merges move its figure by up to 2x.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const { ChdbEngine } = await import('../dist/engine/chdb/index.js');
const { encodeEventRow, timeExtentsOf } = await import('../dist/engine/index.js');

/** `execDdl` runs a statement as written: `exec` would append query settings to the OPTIMIZE. */
class ProbeEngine extends ChdbEngine {
  optimizeLogs() {
    return this.execDdl('OPTIMIZE TABLE logs FINAL');
  }
}

const [file, roundsArg = '2', variantsArg = '1000x60,10000x6'] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: node bench/part-size-probe.mjs NDJSON[.gz] [ROUNDS] [EVENTSxPARTS,…]');
const variants = variantsArg.split(',').map((spec) => {
  const [events, parts] = spec.split('x').map(Number);
  if (!(events > 0 && parts > 0)) throw new Error(`a variant is EVENTSxPARTS, got ${spec}`);
  return { name: spec, events, parts };
});
const bytes = readFileSync(file);
const lines = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').split('\n').filter(Boolean);
const needed = Math.max(...variants.map((v) => v.events * v.parts));
if (lines.length < needed) throw new Error(`${file} holds ${lines.length} events; the variants need ${needed}`);

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
/** CPU seconds by thread name (chDB's pools name their threads), from /proc. */
const threadSeconds = () => {
  const out = new Map();
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = readFileSync(`/proc/self/task/${task}/comm`, 'utf8')
        .trim()
        .replace(/[0-9]+$/, '');
      out.set(task, [name, (Number(fields[11]) + Number(fields[12])) / 100]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
};
const flatten = (value, prefix = '', out = {}) => {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (v !== null && typeof v === 'object') flatten(v, path, out);
    else if (v !== null) out[path] = typeof v === 'boolean' ? String(v) : v;
  }
  return out;
};
const batchOf = (k, size) => {
  const events = lines.slice(k * size, (k + 1) * size).map((line, i) => ({
    searchText: line.replace(/[^A-Za-z0-9]+/g, ' '),
    tenant: 'probe',
    indexId: 'probe',
    tsNs: 1795000000000000000n + BigInt(k * size + i) * 1000000n,
    seq: BigInt(k * size + i),
    sourceType: 'probe',
    tsField: '',
    rawJson: line,
    attrs: flatten(JSON.parse(line)),
    nullPaths: [],
  }));
  return { rows: events.map((event) => encodeEventRow(event)), extents: timeExtentsOf(events) };
};

async function run({ events, parts }) {
  const dir = mkdtempSync(join(tmpdir(), 'part-size-probe-'));
  const engine = new ProbeEngine({ path: dir, poolSize: 2 });
  await engine.init();
  const batches = Array.from({ length: parts }, (_, k) => batchOf(k, events));
  const merges = new Map();
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const { rows } = await engine.query('SELECT table, result_part_name AS part, num_parts FROM system.merges');
      for (const row of rows) merges.set(`${row.table} ${row.part}`, Number(row.num_parts));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const threadsBefore = threadSeconds();
  const start = cpuSeconds();
  let next = 0;
  const writer = async () => {
    while (next < parts) await engine.insertEvents(batches[next++]);
  };
  await Promise.all([writer(), writer()]);
  const inserted = cpuSeconds();
  for (let quiet = 0; quiet < 30;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { rows } = await engine.query('SELECT count() AS running FROM system.merges');
    quiet = Number(rows[0].running) > 0 ? 0 : quiet + 1;
  }
  polling = false;
  await poll;
  const merged = cpuSeconds();
  await engine.optimizeLogs();
  const optimized = cpuSeconds();
  const byName = new Map();
  for (const [task, [name, seconds]] of threadSeconds()) byName.set(name, (byName.get(name) ?? 0) + seconds - (threadsBefore.get(task)?.[1] ?? 0));
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
  const perEvent = (seconds) => ((seconds / (events * parts)) * 1e6).toFixed(0);
  const logsMerges = [...merges].filter(([key]) => key.startsWith('logs '));
  const threads = [...byName].filter(([, s]) => s >= 0.5).sort((a, b) => b[1] - a[1]);
  return (
    `${perEvent(inserted - start)} / ${perEvent(merged - start)} / ${perEvent(optimized - start)} µs per event; ` +
    `${logsMerges.length} merges of logs reading ${logsMerges.reduce((sum, [, n]) => sum + n, 0)} parts; ` +
    threads.map(([name, s]) => `${name} ${s.toFixed(1)}`).join(', ')
  );
}

const results = new Map(variants.map((v) => [v.name, []]));
for (let round = 0; round < Number(roundsArg); round++) for (const variant of variants) results.get(variant.name).push(await run(variant));
console.log('CPU per event: inserting / + merges after / + OPTIMIZE FINAL; merges seen; CPU s by thread');
for (const [name, runs] of results) for (const line of runs) console.log(`${name.padEnd(12)} ${line}`);

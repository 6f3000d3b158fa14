/**
 * Insert benchmark of the chDB engine with synthetic Windows Security events (~2.4 KB, ~300
 * distinct paths). Run: `npx tsx src/engine/testing/insert-benchmark.ts --rows 100000 --batch 20000
 * [--fsync 0]`. One configuration per process, since chDB binds one data directory per process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ChdbEngine } from '../chdb/chdb-engine.js';
import type { EventRowInput } from '../engine.js';
import { encodeEventRow } from '../encode-event-row.js';
import { timeExtentsOf } from '../time-extents.js';
import { flatAttrs } from './engine-fixtures.js';

const eventTypes = 14;
const fieldsPerType = 20;

/** Deterministic pseudo-random events; the same seed gives the same bytes. */
export function windowsEvents(count: number, seed = 1): EventRowInput[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const hex = (length: number) => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
  const guid = () => `{${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}}`;
  const start = 1_704_067_200_000_000_000n;
  const events: EventRowInput[] = [];
  for (let i = 0; i < count; i++) {
    const type = Math.floor(random() * eventTypes);
    const data: Record<string, string | number> = {};
    for (let f = 0; f < fieldsPerType; f++) {
      const name = `Field${type}_${f}`;
      if (f % 3 === 0) data[`${name}Count`] = Math.floor(random() * 100_000);
      else if (f % 3 === 1) data[`${name}Id`] = `0x${hex(8)}`;
      else data[`${name}Name`] = `S-1-5-21-${hex(10)}-${hex(12)}-user${Math.floor(random() * 500)}`;
    }
    const tsNs = start + BigInt(i) * 1_000_000n + BigInt(Math.floor(random() * 999_999));
    const event = {
      Event: {
        System: {
          Provider: { Name: 'Microsoft-Windows-Security-Auditing', Guid: guid() },
          EventID: 4600 + type * 7,
          Version: 2,
          Level: 0,
          Task: 12_544 + type,
          Keywords: '0x8020000000000000',
          TimeCreated: { SystemTime: new Date(Number(tsNs / 1_000_000n)).toISOString() },
          EventRecordID: 1_000_000 + i,
          Correlation: { ActivityID: guid() },
          Execution: { ProcessID: Math.floor(random() * 5000), ThreadID: Math.floor(random() * 9000) },
          Channel: 'Security',
          Computer: `WS-${Math.floor(random() * 300)}.corp.example.com`,
        },
        EventData: data,
        RenderingInfo: {
          Message:
            `An account was successfully logged on. Subject: Security ID: S-1-5-18 Account Name: WS$ Account Domain: CORP ` +
            `Logon ID: 0x3E7 Logon Type: ${Math.floor(random() * 11)} Elevated Token: Yes New Logon: ${hex(40)} ` +
            'This event is generated when a logon session is created. It is generated on the computer that was accessed. ' +
            'The subject fields indicate the account on the local system which requested the logon. '.repeat(10),
        },
      },
    };
    const json = JSON.stringify(event);
    events.push({
      tenant: 'bench',
      indexId: 'windows',
      tsNs,
      seq: BigInt(i + 1),
      sourceType: 'windows:security',
      tsField: 'Event.System.TimeCreated.SystemTime',
      rawJson: json,
      attrs: flatAttrs(event),
      nullPaths: [],
      searchText: '',
    });
  }
  return events;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '100000' }, batch: { type: 'string', default: '20000' }, fsync: { type: 'string', default: '1' } },
  });
  const rows = Number(values.rows);
  const batch = Number(values.batch);
  const path = mkdtempSync(join(tmpdir(), 'vigil-insert-bench-'));
  const engine = new ChdbEngine({ path, poolSize: 1 });
  try {
    await engine.init();
    if (values.fsync === '0') await engine.exec('ALTER TABLE logs MODIFY SETTING fsync_after_insert = 0, fsync_part_directory = 0');
    const events = windowsEvents(rows);
    const rawBytes = events.reduce((sum, event) => sum + Buffer.byteLength(event.rawJson), 0);
    let encodeMs = 0;
    let insertMs = 0;
    // CPU time (all engine threads) is less distorted than wall time on a shared machine.
    let insertCpuUs = 0;
    for (let offset = 0; offset < rows; offset += batch) {
      const t0 = performance.now();
      const slice = events.slice(offset, offset + batch);
      const lines = slice.map((event) => encodeEventRow(event));
      const extents = timeExtentsOf(slice);
      const t1 = performance.now();
      const cpu = process.cpuUsage();
      await engine.insertEvents({ rows: lines, extents });
      const used = process.cpuUsage(cpu);
      insertCpuUs += used.user + used.system;
      insertMs += performance.now() - t1;
      encodeMs += t1 - t0;
    }
    const inserted = await engine.storageStats();
    await engine.optimize();
    const merged = await engine.storageStats();
    const paths = await engine.fieldCatalog('bench', ['windows']);
    console.log(
      JSON.stringify({
        rows,
        batch,
        fsync: values.fsync,
        avgRawBytes: Math.round(rawBytes / rows),
        distinctPaths: paths.length,
        encodeRowsPerS: Math.round(rows / (encodeMs / 1000)),
        insertRowsPerS: Math.round(rows / (insertMs / 1000)),
        insertMBPerS: +(rawBytes / 1e6 / (insertMs / 1000)).toFixed(1),
        insertRowsPerCpuS: Math.round(rows / (insertCpuUs / 1e6)),
        partsAfterInsert: inserted.parts,
        diskPerRawByteAfterInsert: +(inserted.bytesOnDisk / rawBytes).toFixed(3),
        diskPerRawByteAfterMerge: +(merged.bytesOnDisk / rawBytes).toFixed(3),
      }),
    );
  } finally {
    await engine.close();
    rmSync(path, { recursive: true, force: true });
  }
}

// Runs only as a script, so that tests may import the event generator.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

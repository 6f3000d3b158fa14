/**
 * The embedded engine behind the ingest journal: the whole engine contract (reads see every
 * acknowledged batch), small batches written as one insert, and a restart after a stop that
 * left records in the journal (written once, never twice, even when they were written before).
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/index.js';
import { ChdbEngine } from '../chdb/chdb-engine.js';
import type { Engine } from '../engine.js';
import { describeEngineContract } from '../testing/engine-contract.js';
import { anEvent, countEvents, insert, uniqueTenant } from '../testing/engine-fixtures.js';
import { defaultJournalOptions, IngestJournal } from './ingest-journal.js';
import { JournaledEngine } from './journaled-engine.js';

// chDB binds one data directory per process: this file's engines all share it.
const root = mkdtempSync(join(tmpdir(), 'vigil-journaled-engine-'));
const path = join(root, 'engine');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Counts the inserts into `logs`, as the one process writing them sees them. */
class CountedInserts extends ChdbEngine {
  inserts = 0;
  protected override insertBlock(chunks: readonly Uint8Array[]): Promise<void> {
    this.inserts++;
    return super.insertBlock(chunks);
  }
}

/**
 * A chDB engine behind a journal in `journalDir`. The linger is an hour, so nothing is written
 * unless a read, a delete or a full group (1,000 events) asks for it.
 */
function journaled(journalDir: string, inner = new CountedInserts({ path, poolSize: 2 })) {
  const journal = new IngestJournal(journalDir, (batches) => inner.insertEventGroup(batches), silentLogger, {
    ...defaultJournalOptions,
    flushEvents: 1000,
    flushBytes: 1 << 24,
    lingerMs: 3_600_000,
  });
  return { engine: new JournaledEngine(inner, journal), inner };
}

const journalDirs = () => mkdtempSync(join(root, 'journal-'));
const segments = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.journal'));

describeEngineContract('chdb behind the ingest journal', async (): Promise<Engine> => journaled(journalDirs()).engine, { acknowledgesBeforeWriting: true });

describe('the embedded engine behind the ingest journal', () => {
  it('acknowledges small batches before writing them, then writes them as one insert', async () => {
    const dir = journalDirs();
    const { engine, inner } = journaled(dir);
    try {
      await engine.init();
      const tenant = uniqueTenant();
      const before = inner.inserts;
      for (let i = 0; i < 20; i++) await insert(engine, [anEvent({ tenant, attrs: { n: i } }), anEvent({ tenant, attrs: { n: i } })]);
      expect(inner.inserts).toBe(before);
      expect(await countEvents(inner, tenant)).toBe(0);
      expect(segments(dir)).toHaveLength(1);
      expect(await countEvents(engine, tenant)).toBe(40);
      expect(inner.inserts - before).toBe(1);
    } finally {
      await engine.close();
    }
    expect(segments(dir)).toEqual([]);
  });

  it('writes a batch that fills a group alone (1,000 events) at once, without the journal', async () => {
    const dir = journalDirs();
    const { engine, inner } = journaled(dir);
    try {
      await engine.init();
      const tenant = uniqueTenant();
      await insert(
        engine,
        Array.from({ length: 1000 }, () => anEvent({ tenant })),
      );
      expect(await countEvents(inner, tenant)).toBe(1000);
      expect(segments(dir)).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('after a stop that left records in the journal, the next start writes them', async () => {
    const dir = journalDirs();
    const tenant = uniqueTenant();
    const first = journaled(dir);
    await first.engine.init();
    await insert(first.engine, [anEvent({ tenant }), anEvent({ tenant })]);
    await insert(first.engine, [anEvent({ tenant, indexId: 'other' })]);
    // The process stops: the engine closes, the journal is never asked to write.
    await first.inner.close();

    const next = journaled(dir);
    try {
      await next.engine.init();
      expect(await countEvents(next.inner, tenant, 'main')).toBe(2);
      expect(await countEvents(next.inner, tenant, 'other')).toBe(1);
      expect(segments(dir)).toEqual([]);
    } finally {
      await next.engine.close();
    }
  });

  it('writes a record once even when the stop came after it was written and before its segment went', async () => {
    const dir = journalDirs();
    const copy = journalDirs();
    const tenant = uniqueTenant();
    const first = journaled(dir);
    await first.engine.init();
    await insert(first.engine, [anEvent({ tenant }), anEvent({ tenant })]);
    await insert(first.engine, [anEvent({ tenant })]);
    cpSync(dir, copy, { recursive: true });
    expect(await countEvents(first.engine, tenant)).toBe(3);
    await first.engine.close();
    expect(segments(dir)).toEqual([]);
    // As if the stop came between the write and the segment's removal.
    cpSync(copy, dir, { recursive: true });

    const next = journaled(dir);
    try {
      await next.engine.init();
      expect(await countEvents(next.engine, tenant)).toBe(3);
      expect(segments(dir)).toEqual([]);
    } finally {
      await next.engine.close();
    }
  });
});

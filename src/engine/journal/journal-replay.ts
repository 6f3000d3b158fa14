import type { Logger } from '../../core/index.js';
import type { EventBatch } from '../engine.js';
import { isEngineUnwell, JournalFormatError, setAsideAfter } from './journal-errors.js';
import { decodeJournalRecord } from './journal-record.js';
import type { SegmentDirectory } from './journal-segments.js';
import type { SetAsideFile } from './set-aside-file.js';

/**
 * Writes again, with `writeAgain` (which must not double events already written), every record
 * the segments an earlier run left hold, oldest first, then removes the segments. A record the
 * engine will not take is set aside; while the engine itself is unwell the start fails, leaving
 * the journal as it was. Answers the events written.
 */
export async function replaySegments(
  directory: SegmentDirectory,
  setAside: SetAsideFile,
  writeAgain: (batch: EventBatch) => Promise<void>,
  logger: Logger,
): Promise<{ events: number }> {
  let events = 0;
  for (const segment of directory.stored()) {
    let damage = segment.damage;
    for (const [at, record] of segment.records.entries()) {
      const batch = decodeOrNull(record);
      if (batch === null) {
        damage = { kind: 'checksum', message: `record ${at + 1} passes its checksum but is not a record this release reads` };
        break;
      }
      if (await writeOrSetAside(record, batch, writeAgain, setAside)) events += batch.rows.length;
    }
    if (damage?.kind === 'checksum') {
      logger.error(
        { segment: segment.path, damage: damage.message },
        'an ingest journal segment is damaged: the records before the damage were written, and the file is kept aside',
      );
      setAside.keepFile(segment.path);
    } else {
      // A record cut short was being appended when the process stopped: never acknowledged.
      if (segment.damage !== null)
        logger.warn({ segment: segment.path, damage: segment.damage.message }, 'dropped an ingest journal record cut short by a stop; it was never acknowledged');
      directory.remove(segment.path);
    }
  }
  directory.sync();
  if (events > 0) logger.info({ events }, 'wrote the events the ingest journal held at start');
  return { events };
}

/** The batch a record holds, or null when its bytes are not a record (journal-record.ts). */
function decodeOrNull(record: Buffer): EventBatch | null {
  try {
    return decodeJournalRecord(record);
  } catch (error) {
    if (error instanceof JournalFormatError) return null;
    throw error;
  }
}

/** Writes a record's batch, trying again while the engine answers; true when written, false when set aside. */
async function writeOrSetAside(record: Buffer, batch: EventBatch, writeAgain: (batch: EventBatch) => Promise<void>, setAside: SetAsideFile): Promise<boolean> {
  for (let attempts = 1; ; attempts++) {
    try {
      await writeAgain(batch);
      return true;
    } catch (error) {
      if (isEngineUnwell(error)) throw error;
      if (!setAsideAfter(error, attempts)) continue;
      await setAside.keep(record, batch.rows.length, error);
      return false;
    }
  }
}

import { EngineError, ErrorCodes, describeStorageFault, storageFaultOf } from '../../core/index.js';
import { isRowDataError } from '../to-engine-error.js';

/**
 * Journal bytes that are not what the journal wrote: a record cut short by a crash while it was
 * appended, or a damaged file. Replay stops reading a segment there (what follows was never
 * acknowledged, or cannot be trusted).
 */
export class JournalFormatError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JournalFormatError';
  }
}

/** Failures that say nothing of the record: the engine is down, out of disk or of memory, or slow. */
export function isEngineUnwell(error: unknown): boolean {
  if (storageFaultOf(error) !== null) return true;
  const code = error instanceof EngineError ? error.code : null;
  return code === ErrorCodes.unavailable || code === ErrorCodes.insufficientStorage || code === ErrorCodes.engineMemoryLimit || code === ErrorCodes.engineTimeout;
}

/**
 * Tries of a record that fails alone while the engine is well (it answers, and refuses only
 * this) before the record is set aside: it would otherwise hold back everything behind it.
 */
export const attemptsBeforeSetAside = 3;

/** Whether a record that failed alone `attempts` times with `error` is to be set aside. */
export function setAsideAfter(error: unknown, attempts: number): boolean {
  return isRowDataError(error) || (!isEngineUnwell(error) && attempts >= attemptsBeforeSetAside);
}

/** An append's failure as the ingest caller sees it: a full or read-only disk named as such. */
export function appendError(error: unknown): EngineError {
  const fault = storageFaultOf(error);
  if (fault !== null) {
    const { code, message } = describeStorageFault(fault, 'writing to the ingest journal');
    return new EngineError(message, { code, cause: error });
  }
  return new EngineError('writing to the ingest journal', { cause: error });
}

import { ErrorCodes } from './error-codes.js';
import { messageOf } from './errors.js';

/** Why the data dir cannot take a write: its disk is full, or it cannot be written at all. */
export type StorageFault = 'full' | 'not_writable';

// errno names (Node, SQLite's extended codes) and the words ClickHouse and libc print for them
const fullCodes = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const notWritableCodes = new Set(['EPERM', 'EROFS', 'EACCES']);
const fullText = /No space left on device|Disk quota exceeded|NOT_ENOUGH_SPACE|Cannot reserve .* not enough space|errno: 28\b/i;
const notWritableText = /Read-only file system|Operation not permitted|Permission denied|errno: (?:1|13|30)\b/;

/**
 * The storage fault behind an error (its own code or message, or a cause's), or null. Faults of
 * the disk are the operator's to fix and go away once fixed, so they are told apart from bugs.
 */
export function storageFaultOf(error: unknown): StorageFault | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    const code = typeof current === 'object' ? (current as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && fullCodes.has(code)) return 'full';
    if (typeof code === 'string' && notWritableCodes.has(code)) return 'not_writable';
    const message = messageOf(current);
    if (fullText.test(message)) return 'full';
    if (notWritableText.test(message)) return 'not_writable';
    current = current instanceof Error ? current.cause : undefined;
  }
  return null;
}

/**
 * What a caller is told of a storage fault: `insufficient_storage` (HTTP 507) for a full disk,
 * `unavailable` (503) for a data dir that cannot be written, each saying what to do. `what` says
 * what failed (`writing events`); paths stay in the cause (the log), not in what clients see.
 * Each phase raises its own error class with these.
 */
export function describeStorageFault(fault: StorageFault, what: string): { code: StorageFaultCode; message: string } {
  return fault === 'full'
    ? { code: ErrorCodes.insufficientStorage, message: `${what}: the disk holding the data dir is full; free space, then retry` }
    : { code: ErrorCodes.unavailable, message: `${what}: the data dir cannot be written (read-only or immutable?); make it writable, then retry` };
}

export type StorageFaultCode = typeof ErrorCodes.insufficientStorage | typeof ErrorCodes.unavailable;

/**
 * core: what every module shares — typed errors and their code catalog, diagnostics, spans, the
 * clock, the logger interface, ids, the secret box, and small machinery (keyed lock, run limit,
 * CRC-32, bounded zip reader). It imports nothing from the project.
 */
export * from './error-codes.js';
export * from './errors.js';
export * from './diagnostic.js';
export * from './span.js';
export * from './clock.js';
export * from './event-time-span.js';
export * from './floor-div.js';
export * from './logger.js';
export * from './ids.js';
export * from './sql-literal.js';
export * from './search-words.js';
export * from './stored-layout.js';
export * from './secret-box.js';
export * from './control-characters.js';
export * from './closest-name.js';
export { crc32 } from './crc32.js';
export { listZipEntries, readZipEntry, type ZipEntry } from './zip-reader.js';
export { KeyedLock } from './keyed-lock.js';
export { RunLimit } from './run-limit.js';
export * from './system-namespace.js';
export * from './log-redaction.js';
export * from './storage-fault.js';

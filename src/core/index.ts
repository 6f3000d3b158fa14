/**
 * core: the nouns every module shares — typed errors and their code catalog, diagnostics and
 * spans, the clock, the logger interface, identifiers, the secret box that seals stored secrets.
 * It imports nothing from the project.
 */
export * from './error-codes.js';
export * from './errors.js';
export * from './diagnostic.js';
export * from './span.js';
export * from './clock.js';
export * from './event-time-span.js';
export * from './logger.js';
export * from './ids.js';
export * from './sql-literal.js';
export * from './search-words.js';
export * from './secret-box.js';
export * from './control-characters.js';
export * from './closest-name.js';
export { crc32 } from './crc32.js';
export * from './system-namespace.js';
export * from './log-redaction.js';
export * from './storage-fault.js';

/**
 * engine/journal: the ingest journal in front of the embedded engine: small batches are
 * acknowledged once on disk here and written in groups. Named only by composition roots.
 */
export { IngestJournal, defaultJournalOptions, type IngestJournalOptions } from './ingest-journal.js';
export { JournaledEngine } from './journaled-engine.js';

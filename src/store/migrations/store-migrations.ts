import type { Migration } from 'kysely';
import * as initial from './0001-initial.js';
import * as detectionRulesAndSinks from './0002-detection-rules-and-sinks.js';
import * as detectionEngine from './0003-detection-engine.js';
import * as detectionOutbox from './0004-detection-outbox.js';
import * as syncSources from './0005-sync-sources.js';
import * as compatibility from './0006-compatibility.js';
import * as scaleOut from './0007-scale-out.js';
import * as ingestReceipts from './0010-ingest-receipts.js';

/**
 * Every schema migration, in the order they apply. Listed in code rather than read from a folder
 * because the service runs from dist/, where a folder scan would find compiled names and maps.
 * Append only: names sort in list order (Kysely orders by name) and shipped entries never change.
 */
export const storeMigrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['0001-initial', initial],
  ['0002-detection-rules-and-sinks', detectionRulesAndSinks],
  ['0003-detection-engine', detectionEngine],
  ['0004-detection-outbox', detectionOutbox],
  ['0005-sync-sources', syncSources],
  ['0006-compatibility', compatibility],
  ['0007-scale-out', scaleOut],
  ['0010-ingest-receipts', ingestReceipts],
];

/**
 * The schema's history: every step from an empty store to `schemaVersion`, oldest first, built
 * from the same DDL pieces as the current schema (schema.ts), so a step and a fresh store agree.
 */
import { sqlIdentifier } from '../core/index.js';
import { lookupRowsTable } from './lookup-rows.js';
import {
  eventMinutesTable,
  eventMinutesView,
  fastColumnCodecs,
  fieldLayoutColumnDdl,
  fieldLayoutColumns,
  fieldMapsTable,
  fieldPathsIndex,
  logsLayoutSettings,
  mergeAlgorithmSettings,
  noSlot,
  rawColumn,
  renderAll,
  restMapSettings,
  searchWordsIndex,
  tablesTemplate,
  timeExtentsTable,
  type SchemaOptions,
} from './schema.js';

/** One step of the schema history; statements must be idempotent (a crash may repeat them). */
export interface SchemaMigration {
  readonly version: number;
  readonly statements: readonly string[];
}

/** Every schema step this build knows, oldest first. */
export function schemaMigrations(options: SchemaOptions = {}): SchemaMigration[] {
  return [
    { version: 1, statements: renderAll(tablesTemplate, options) },
    // v1 stores indexed the raw JSON text; free text now runs on search_text. Rows written by v1
    // keep an empty search_text (pre-release data: re-ingest to make it free-text searchable).
    {
      version: 2,
      statements: renderAll(
        [
          'ALTER TABLE logs{{onCluster}} ADD COLUMN IF NOT EXISTS search_text String CODEC(ZSTD(1)) AFTER raw',
          'ALTER TABLE logs{{onCluster}} ADD INDEX IF NOT EXISTS search_txt lower(search_text) TYPE text(tokenizer = splitByNonAlpha)',
          'ALTER TABLE logs{{onCluster}} DROP INDEX IF EXISTS raw_txt',
        ],
        options,
      ),
    },
    // v3 counts events per minute for slice planning (emptied and refilled from logs, so a step
    // repeated after a crash counts every event once: migrations run before any insert), and
    // makes merged parts wide.
    {
      version: 3,
      statements: renderAll(
        [
          `ALTER TABLE logs{{onCluster}} MODIFY SETTING ${logsLayoutSettings}`,
          eventMinutesTable,
          'TRUNCATE TABLE IF EXISTS event_minutes{{onCluster}}',
          eventMinutesView,
          `INSERT INTO event_minutes SELECT tenant, idx, toStartOfMinute(toDateTime(ts, 'UTC')) AS minute, count() AS rows FROM logs GROUP BY tenant, idx, minute`,
        ],
        options,
      ),
    },
    // v4 replaces search_txt (splitByNonAlpha words, which split at `_`) by search_words (the
    // language's words). The index of stored parts is built by a background mutation, not
    // waited for (chDB waits by default: about 40 s per 5 M events before the server could
    // start); until a part has it, the engine evaluates the same expression row by row, with
    // the same result. search_txt goes first: dropping it after would wait for the build.
    {
      version: 4,
      statements: renderAll(
        [
          'ALTER TABLE logs{{onCluster}} DROP INDEX IF EXISTS search_txt SETTINGS mutations_sync = 0',
          `ALTER TABLE logs{{onCluster}} ADD ${searchWordsIndex.replace('INDEX ', 'INDEX IF NOT EXISTS ')}`,
          'ALTER TABLE logs{{onCluster}} MATERIALIZE INDEX search_words SETTINGS mutations_sync = 0',
        ],
        options,
      ),
    },
    // v5 writes raw in smaller compression blocks. A column setting: parts written from now on
    // (inserts, merges) use it; stored parts keep their blocks until merged.
    { version: 5, statements: renderAll([`ALTER TABLE logs{{onCluster}} MODIFY COLUMN ${rawColumn}`], options) },
    // v6 decodes what queries read in bulk faster (fastColumnCodecs). A codec change only: parts
    // written from now on use it, stored parts keep theirs until merged (no mutation runs).
    // IF EXISTS: a store created at v10 has no attrs, and steps may run again on a newer shape.
    {
      version: 6,
      statements: renderAll(
        [
          `ALTER TABLE logs{{onCluster}} ${Object.entries(fastColumnCodecs)
            .map(([column, codec]) => `MODIFY COLUMN IF EXISTS ${column} ${codec}`)
            .join(', ')}`,
        ],
        options,
      ),
    },
    // v7 keeps each index's time extents, filled here from the stored events (min and max: a
    // step repeated after a crash adds the same extents again; migrations run before any insert).
    // Over nanoseconds, as TableOperations.writtenTimeSpans explains.
    {
      version: 7,
      statements: renderAll(
        [
          timeExtentsTable,
          `INSERT INTO time_extents SELECT tenant, idx, fromUnixTimestamp64Nano(min(toUnixTimestamp64Nano(ts)), 'UTC'), fromUnixTimestamp64Nano(max(toUnixTimestamp64Nano(ts)), 'UTC')
FROM logs GROUP BY tenant, idx`,
        ],
        options,
      ),
    },
    // v8 compresses raw with LZ4 (rawColumn). A codec change only, like v5 and v6: stored parts
    // keep ZSTD until merged.
    { version: 8, statements: renderAll([`ALTER TABLE logs{{onCluster}} MODIFY COLUMN ${rawColumn}`], options) },
    // v9 holds the rows of lookup tables (lookup-rows.ts).
    { version: 9, statements: renderAll([lookupRowsTable], options) },
    // v10 stores columns in typed slots and the rest maps instead of the JSON column attrs, and
    // ingest writes the field catalog itself (docs/engine.md, "Typed slots"). Stored rows keep
    // their attrs and read as map 0 (a marker row per index holding events) until retention
    // deletes them; new rows leave attrs empty. The attrs_paths index goes (new rows would pay
    // for it), so `col: *` on stored rows reads attrs without a prefilter.
    {
      version: 10,
      statements: [
        ...renderAll(
          [
            `ALTER TABLE logs{{onCluster}} ${fieldLayoutColumnDdl.map((column) => `ADD COLUMN IF NOT EXISTS ${column}`).join(', ')}`,
            `ALTER TABLE logs{{onCluster}} ADD ${fieldPathsIndex.replace('INDEX ', 'INDEX IF NOT EXISTS ')}`,
            'ALTER TABLE logs{{onCluster}} DROP INDEX IF EXISTS attrs_paths SETTINGS mutations_sync = 0',
            'DROP VIEW IF EXISTS field_catalog_mv{{onCluster}}',
            fieldMapsTable,
          ],
          options,
        ),
        // On a cluster the ALTERs above act on logs_local; the Distributed logs over it needs the
        // columns too (no codecs there: it stores nothing), before the statement below reads them.
        ...(options.cluster === undefined
          ? []
          : [`ALTER TABLE logs ON CLUSTER ${sqlIdentifier(options.cluster)} ${fieldLayoutColumns.map(([name, type]) => `ADD COLUMN IF NOT EXISTS ${name} ${type}`).join(', ')}`]),
        // The indexes holding rows of map 0: every row stored before (a column added with a
        // default is not written, so this reads no stored column but tenant and idx).
        ...renderAll([`INSERT INTO field_maps SELECT DISTINCT tenant, idx, '', 0, '', ${noSlot} FROM logs WHERE field_map = 0`], options),
      ],
    },
    // v11 writes the rest maps in buckets (restMapSettings): merges apply it to the parts they
    // write, so stored parts change as they merge, with no rewrite here.
    { version: 11, statements: renderAll([`ALTER TABLE logs{{onCluster}} MODIFY SETTING ${restMapSettings}`], options) },
    // v12 merges column by column (mergeAlgorithmSettings): a setting only, for merges to come.
    { version: 12, statements: renderAll([`ALTER TABLE logs{{onCluster}} MODIFY SETTING ${mergeAlgorithmSettings}`], options) },
  ];
}

// What the engine's inserts and merges cost per row, by table layout (issue 22; the journal's
// "Events walked into the encoder" section). Run on a COPY of a data dir that ingest filled:
//
//   node bench/merge-probe.mjs DATA_DIR/engine [ROUNDS] [VARIANT,…]      (CHUNKS=12 by default)
//
// For each variant, a table `CREATE TABLE … AS logs`, altered as the variant says, gets the rows
// of the largest weekly partition of `logs` in CHUNKS inserts (merges stopped): each of a span of
// time, as ingest's batches of a replay are, or with INTERLEAVED=1 every CHUNKS-th row, which a
// merge must interleave row by row. Then one
// `OPTIMIZE TABLE … FINAL`. It prints the CPU of the process (chDB runs in it) per row for the
// inserts (which include reading `logs`, the same for every variant) and for the merge. Runs of
// the variants alternate, since the machine is shared.
import { Session } from 'chdb';

const [dir, roundsArg = '2', onlyArg] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: node bench/merge-probe.mjs DATA_DIR/engine [ROUNDS] [VARIANT,…]');
const session = new Session(dir);
const query = (sql) => session.query(sql, 'TSVRaw');
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const range = (count, from = 0) => Array.from({ length: count }, (_, i) => i + from);
const dropStringSlots = (from) => range(96 - from, from).map((i) => `ALTER TABLE T DROP COLUMN s${i}`);
const dropNumberSlots = (from) => range(32 - from, from).map((i) => `ALTER TABLE T DROP COLUMN n${i}`);
const dropIndexes = ['ALTER TABLE T DROP INDEX search_words', 'ALTER TABLE T DROP INDEX field_paths_idx'];
const stringSlotsNotNull = [
  ...range(96).map((i) => `ALTER TABLE T MODIFY COLUMN s${i} String DEFAULT '' CODEC(LZ4)`),
  ...range(32).map((i) => `ALTER TABLE T MODIFY COLUMN n${i} Float64 DEFAULT 0 CODEC(LZ4)`),
];
const wordsIndexWith = (parameters) =>
  `ALTER TABLE T ADD INDEX search_words replaceAll(lower(search_text), '_', 'Z') TYPE text(tokenizer = splitByNonAlpha${parameters ? ', ' + parameters : ''})`;
const sparse = 'ALTER TABLE T MODIFY SETTING ratio_of_defaults_for_sparse_serialization = 0.5';

/** Each variant: the statements that make its table from a copy of `logs` (`T` names the table). */
const variants = {
  full: [],
  'no-words-index': [dropIndexes[0]],
  'no-indexes': dropIndexes,
  'no-slots': [...dropIndexes, ...dropStringSlots(0), ...dropNumberSlots(0)],
  'words-index-no-slots': [dropIndexes[1], ...dropStringSlots(0), ...dropNumberSlots(0)],
  'slots-64': [...dropStringSlots(48), ...dropNumberSlots(16)],
  'slots-32': [...dropStringSlots(24), ...dropNumberSlots(8)],
  'sparse-nullable-slots': [sparse],
  'sparse-not-null-slots': [sparse, ...stringSlotsNotNull],
  'not-null-slots': stringSlotsNotNull,
  'compact-merged-parts': ['ALTER TABLE T MODIFY SETTING min_bytes_for_wide_part = 4000000000'],
  'merge-blocks-64k': ['ALTER TABLE T MODIFY SETTING merge_max_block_size = 65536, merge_max_block_size_bytes = 104857600'],
  'words-no-frontcoding': [dropIndexes[0], wordsIndexWith('dictionary_block_frontcoding_compression = 0')],
  'words-dictionary-4k': [dropIndexes[0], wordsIndexWith('dictionary_block_size = 4096')],
  'words-dictionary-128': [dropIndexes[0], wordsIndexWith('dictionary_block_size = 128')],
  'words-lower-only': [dropIndexes[0], 'ALTER TABLE T ADD INDEX search_words lower(search_text) TYPE text(tokenizer = splitByNonAlpha)'],
  'words-granularity-1': [dropIndexes[0], `${wordsIndexWith('')} GRANULARITY 1`],
  'wide-inserts': ['ALTER TABLE T MODIFY SETTING min_level_for_wide_part = 0, min_bytes_for_wide_part = 0'],
  'wide-inserts-horizontal': ['ALTER TABLE T MODIFY SETTING min_level_for_wide_part = 0, min_bytes_for_wide_part = 0, vertical_merge_algorithm_min_rows_to_activate = 1000000'],
  'horizontal-merges': ['ALTER TABLE T MODIFY SETTING vertical_merge_algorithm_min_rows_to_activate = 1000000'],
};

const chosen = onlyArg === undefined ? Object.keys(variants) : onlyArg.split(',');
for (const name of chosen) if (!(name in variants)) throw new Error(`no variant ${name}; variants: ${Object.keys(variants).join(', ')}`);
const chunks = Number(process.env.CHUNKS ?? 12);
const partition = query("SELECT partition FROM system.parts WHERE active AND table = 'logs' GROUP BY partition ORDER BY sum(rows) DESC LIMIT 1").trim();
const where = `toMonday(ts) = '${partition}'`;
const rows = Number(query(`SELECT count() FROM logs WHERE ${where}`));
const interleaved = process.env.INTERLEAVED === '1';
// the times that cut the week into CHUNKS spans of about as many rows
const cuts = JSON.parse(
  query(
    `SELECT toJSONString(arrayMap(q -> toString(q), quantilesExact(${range(chunks - 1, 1)
      .map((i) => i / chunks)
      .join(', ')})(ts))) FROM logs WHERE ${where}`,
  ),
);
const chunkWhere = (k) => {
  if (interleaved) return `seq % ${chunks} = ${k}`;
  const from = k === 0 ? 'true' : `ts >= '${cuts[k - 1]}'`;
  const to = k === chunks - 1 ? 'true' : `ts < '${cuts[k]}'`;
  return `${from} AND ${to}`;
};
const results = new Map(chosen.map((name) => [name, []]));

for (let round = 0; round < Number(roundsArg); round++) {
  for (const name of chosen) {
    const table = `probe_${name.replaceAll('-', '_')}`;
    query(`DROP TABLE IF EXISTS ${table} SYNC`);
    query(`CREATE TABLE ${table} AS logs`);
    for (const statement of variants[name]) query(statement.replace('TABLE T ', `TABLE ${table} `));
    query(`SYSTEM STOP MERGES ${table}`);
    const columns = query(
      `SELECT arrayStringConcat(groupArray(name), ', ') FROM (SELECT name FROM system.columns WHERE database = currentDatabase() AND table = '${table}' ORDER BY position)`,
    ).trim();
    const start = cpuSeconds();
    for (let k = 0; k < chunks; k++) query(`INSERT INTO ${table} SELECT ${columns} FROM logs WHERE ${where} AND ${chunkWhere(k)}`);
    const inserted = cpuSeconds();
    query(`SYSTEM START MERGES ${table}`);
    query(`OPTIMIZE TABLE ${table} FINAL`);
    const merged = cpuSeconds();
    results.get(name).push(`${(((inserted - start) / rows) * 1e6).toFixed(1)} / ${(((merged - inserted) / rows) * 1e6).toFixed(1)}`);
    query(`DROP TABLE ${table} SYNC`);
  }
}

console.log(`${rows} rows of the week of ${partition} in ${chunks} ${interleaved ? 'interleaved' : 'successive'} inserts; CPU µs per row, inserts / merge, by round:`);
for (const [name, runs] of results) console.log(`${name.padEnd(24)} ${runs.join('   ')}`);

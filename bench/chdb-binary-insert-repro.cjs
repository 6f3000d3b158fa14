// Minimal reproduction, for chDB's maintainers, of binary insert payloads failing through
// chdb-node's native raw-insert call (chdb 3.4.0 from npm, ClickHouse 26.7). Run: node
// bench/chdb-binary-insert-repro.cjs. It prints, per case, what the native call answered and
// what `INSERT … SELECT FROM file(…, RowBinary)` of the same bytes answered; a correct build gives
// `ok` for both. (Session.insert accepts only text formats, so the call is made the way it makes
// it for JSONEachRow, with RowBinary named in the prefix.) docs/engine.md tells what Vigil does
// meanwhile: rows go through file().
'use strict';
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const chdb = require('chdb');
// The native binding chdb-node loads itself (not an export of the package: required by path).
const native = require(join(require.resolve('chdb'), '..', 'dist', 'loader.js')).loadNative();

const dir = mkdtempSync(join(tmpdir(), 'chdb-binary-repro-'));
const session = new chdb.Session(join(dir, 'db'));

function uint64(value) {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(value));
  return b;
}
function string(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

// Each case: a table, and RowBinary bytes of rows for it. The first two hold a byte 0x0a
// ('\n') or 0x0b inside a value; the last has none.
const cases = [
  { name: 'UInt64 0x0a0a', table: 'a UInt64', rows: uint64(0x0a0a), expect: '2570' },
  { name: 'UInt64 11', table: 'a UInt64', rows: uint64(11), expect: '11' },
  { name: 'String then UInt64 10', table: 's String, a UInt64', rows: Buffer.concat([string('x'), uint64(10)]), expect: 'x\t10' },
  { name: 'String "a\\nb"', table: 's String', rows: string('a\nb'), expect: 'a\\nb' },
  { name: 'UInt64 0x0102', table: 'a UInt64', rows: uint64(0x0102), expect: '258' },
];

async function main() {
  let i = 0;
  for (const c of cases) {
    const t = `t${i++}`;
    await session.queryAsync(`CREATE TABLE ${t} (${c.table}) ENGINE = MergeTree ORDER BY tuple()`, { format: 'TabSeparated' });
    let nativeAnswer;
    try {
      await native.InsertRawAsyncConnection(session.connection, `INSERT INTO ${t} FORMAT RowBinary`, c.rows, false);
      const got = (await session.queryAsync(`SELECT * FROM ${t}`, { format: 'TabSeparated' })).text().trim();
      nativeAnswer = got === c.expect ? 'ok' : `wrong rows: ${JSON.stringify(got)}`;
    } catch (error) {
      nativeAnswer = `failed: ${String(error.message).split('\n')[0]}`;
    }
    await session.queryAsync(`TRUNCATE TABLE ${t}`, { format: 'TabSeparated' });
    const file = join(dir, `${t}.bin`);
    writeFileSync(file, c.rows);
    let fileAnswer;
    try {
      await session.queryAsync(`INSERT INTO ${t} SELECT * FROM file('${file}', RowBinary, '${c.table}')`, { format: 'TabSeparated' });
      const got = (await session.queryAsync(`SELECT * FROM ${t}`, { format: 'TabSeparated' })).text().trim();
      fileAnswer = got === c.expect ? 'ok' : `wrong rows: ${JSON.stringify(got)}`;
    } catch (error) {
      fileAnswer = `failed: ${String(error.message).split('\n')[0]}`;
    }
    console.log(`${c.name}: native raw insert ${nativeAnswer}; file() ${fileAnswer}`);
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    session.close();
    rmSync(dir, { recursive: true, force: true });
  });

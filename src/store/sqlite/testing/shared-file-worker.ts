/**
 * A child process of sqlite-store.test.ts, standing in for a server or CLI process that shares
 * the store file. It waits for `go` on stdin so that every worker migrates at the same moment,
 * then reserves sequence numbers and tries to create the same index name, and prints one JSON
 * line: `{ ranges: [[first, count], ...], index: 'created' | 'conflict' }`.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { ConflictError, newId } from '../../../core/index.js';
import { createSqliteStore } from '../index.js';

const [path = '', roundsText = '20'] = process.argv.slice(2);
const store = await createSqliteStore(path);
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await once(lines, 'line');
lines.close();

await store.migrate();
await store.tenants.ensure('acme', Date.now());
const ranges: [string, number][] = [];
for (let round = 0; round < Number(roundsText); round += 1) {
  const count = 1 + ((round * 7 + process.pid) % 5);
  ranges.push([String(await store.tenants.reserveSequence('acme', count)), count]);
}
let index = 'created';
try {
  const now = Date.now();
  await store.indexes.insert({
    id: newId(),
    tenantId: 'acme',
    name: 'web',
    description: '',
    kind: 'user',
    retentionDays: null,
    timestampFields: null,
    sourceType: null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  });
} catch (error) {
  if (!(error instanceof ConflictError)) throw error;
  index = 'conflict';
}
await store.close();
process.stdout.write(`${JSON.stringify({ ranges, index })}\n`);

import { describe, expect, it } from 'vitest';
import type { EncodedEventRow, EventRowInput } from './engine.js';
import { encodeEventRow } from './encode-event-row.js';
import { FieldMapStore, type FieldMapTable } from './field-map-store.js';
import type { FieldMapRow } from './field-maps.js';

/** The maps as a table holds them, counting the reads a cache should spare. */
function memoryTable(): FieldMapTable & { reads: number; rows: FieldMapRow[] } {
  const table = {
    reads: 0,
    rows: [] as FieldMapRow[],
    async read(tenant: string, indexIds: readonly string[]) {
      table.reads++;
      return table.rows.filter((row) => row.tenant === tenant && indexIds.includes(row.indexId));
    },
    async write(rows: readonly FieldMapRow[]) {
      table.rows.push(...rows);
    },
  };
  return table;
}

function row(attrs: Record<string, string | number>): EncodedEventRow {
  const event: EventRowInput = { tenant: 't', indexId: 'i', tsNs: 1n, seq: 1n, sourceType: 'test', tsField: '', rawJson: '{}', searchText: '', attrs, nullPaths: [] };
  return encodeEventRow(event);
}

describe('FieldMapStore.layout', () => {
  it('answers repeated plans from one read and one build of the layout', async () => {
    const table = memoryTable();
    const store = new FieldMapStore(table, { exclusiveWriter: true });
    await store.mapsFor([row({ user: 'ann' })]);
    const first = await store.layout('t', ['i']);
    expect(first.slots.get('user')?.[0]?.column).toBe('s0');
    expect(await store.layout('t', ['i'])).toBe(first);
    expect(table.reads).toBe(1);
  });

  it('builds the layout again once a batch promotes a field, and after the index is forgotten', async () => {
    const table = memoryTable();
    const store = new FieldMapStore(table, { exclusiveWriter: true });
    const batch = await store.mapsFor([row({ user: 'ann' })]);
    const before = await store.layout('t', ['i']);
    expect(before.slots.has('host')).toBe(false);
    // The batch's catalog says every event held host: the next version gives it a slot.
    await store.learn(batch, [{ tenant: 't', indexId: 'i', sourceType: 'test', dayNs: 1n, path: 'host', type: 'String', rows: 1 }]);
    const after = await store.layout('t', ['i']);
    expect(after).not.toBe(before);
    expect(after.slots.get('host')?.[0]?.column).toBe('s1');

    store.forget('t', 'i');
    table.rows.length = 0;
    expect((await store.layout('t', ['i'])).slots.size).toBe(0);
  });
});

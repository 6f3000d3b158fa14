import { describe, expect, it } from 'vitest';
import type { CompiledOutput } from '../query/index.js';
import { decodeBounded } from './decode-bounded.js';
import { rowBytes } from './table-budget.js';

const output: CompiledOutput = { kind: 'table', columns: [{ name: 'k', s: 'k_s', n: 'k_n' }], identity: { kind: 'rule' } };
const engineRows = Array.from({ length: 2500 }, (_, i) => ({ k_s: `key-${i}`, k_n: null }));

describe('decodeBounded', () => {
  it('decodes every row in order across chunks when no bound is reached', async () => {
    const rows = await decodeBounded(output, engineRows, new Map(), { maxRows: Infinity, maxBytes: Infinity });
    expect(rows.map((r) => r.columns.k)).toEqual(engineRows.map((r) => r.k_s));
  });

  it('stops at maxRows', async () => {
    const rows = await decodeBounded(output, engineRows, new Map(), { maxRows: 1501, maxBytes: Infinity });
    expect(rows).toHaveLength(1501);
    expect(rows.at(-1)?.columns.k).toBe('key-1500');
  });

  it('stops at the row that crosses maxBytes, and keeps it', async () => {
    const all = await decodeBounded(output, engineRows, new Map(), { maxRows: Infinity, maxBytes: Infinity });
    const firstThousand = all.slice(0, 1000).reduce((sum, row) => sum + rowBytes(row), 0);
    const rows = await decodeBounded(output, engineRows, new Map(), { maxRows: Infinity, maxBytes: firstThousand });
    expect(rows).toHaveLength(1001);
  });

  it('returns what it has once the signal aborts between chunks', async () => {
    const abort = new AbortController();
    abort.abort();
    const rows = await decodeBounded(output, engineRows, new Map(), { maxRows: Infinity, maxBytes: Infinity }, abort.signal);
    expect(rows).toHaveLength(1000);
  });
});

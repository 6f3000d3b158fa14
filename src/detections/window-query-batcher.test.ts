import { describe, expect, it } from 'vitest';
import type { QueryRows, WindowQuery } from './run-query.js';
import { WindowQueryBatcher, type WindowQueryRunner } from './window-query-batcher.js';

interface Prepared {
  readonly batchKey: string | null;
  readonly text: string;
}

/** A runner that records each statement and answers when the test says so. */
function recordingRunner() {
  const statements: { texts: string[]; signal: AbortSignal; finish: () => void }[] = [];
  const rowsFor = (text: string): QueryRows => ({ columns: ['text'], rows: [{ rowId: null, columns: { text } }], identity: { kind: 'event' } });
  const runner: WindowQueryRunner<Prepared> = {
    prepare: async (query) => ({ text: query.queryText, batchKey: query.queryText.startsWith('alone') ? null : `${query.tenantId}|${query.startNs}` }),
    runAlone: (prepared, signal) => new Promise((resolve) => statements.push({ texts: [prepared.text], signal, finish: () => resolve(rowsFor(prepared.text)) })),
    runBatch: (prepared, signal) =>
      new Promise((resolve) =>
        statements.push({
          texts: prepared.map((p) => p.text),
          signal,
          finish: () => resolve(prepared.map((p) => (p.text.startsWith('bad') ? new Error(`${p.text} failed`) : rowsFor(p.text)))),
        }),
      ),
  };
  return { runner, statements };
}

const query = (text: string, extra: Partial<WindowQuery> = {}): WindowQuery => ({ tenantId: 't', queryText: text, startNs: 0n, endNs: 60n, maxRows: 10, ...extra });
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const textOf = (rows: QueryRows): unknown => rows.rows[0]?.columns.text;

describe('WindowQueryBatcher', () => {
  it('runs queries of one batch key started together in one statement, and others alone or in their own', async () => {
    const { runner, statements } = recordingRunner();
    const batcher = new WindowQueryBatcher(runner, { maxStatements: 4, maxBatch: 10 });
    const results = Promise.all([
      batcher.run(query('a')),
      batcher.run(query('alone-1')),
      batcher.run(query('b')),
      batcher.run(query('c', { startNs: 60n })),
      batcher.run(query('d')),
    ]);
    await turn();
    await turn();
    expect(statements.map((s) => s.texts)).toEqual([['a', 'b', 'd'], ['alone-1'], ['c']]);
    for (const s of statements) s.finish();
    expect((await results).map(textOf)).toEqual(['a', 'alone-1', 'b', 'c', 'd']);
  });

  it('waits for queries started together that are still being planned, so they share the statement', async () => {
    const { runner, statements } = recordingRunner();
    const prepare = runner.prepare;
    // Planning reads the store: each query's plan arrives a few turns apart.
    runner.prepare = async (q) => {
      const delayMs = Number(q.queryText.slice(1)) * 3;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return prepare(q);
    };
    const batcher = new WindowQueryBatcher(runner, { maxStatements: 4, maxBatch: 10 });
    const results = Promise.all(['q0', 'q1', 'q2', 'q3'].map((text) => batcher.run(query(text))));
    for (let i = 0; i < 20 && statements.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await turn();
    expect(statements.map((s) => s.texts)).toEqual([['q0', 'q1', 'q2', 'q3']]);
    for (const s of statements) s.finish();
    expect((await results).map(textOf)).toEqual(['q0', 'q1', 'q2', 'q3']);
  });

  it('keeps to maxStatements at once and maxBatch per statement, first come first served', async () => {
    const { runner, statements } = recordingRunner();
    const batcher = new WindowQueryBatcher(runner, { maxStatements: 1, maxBatch: 2 });
    const results = Promise.all(['a', 'b', 'c', 'alone', 'e'].map((text) => batcher.run(query(text))));
    await turn();
    await turn();
    expect(statements.map((s) => s.texts)).toEqual([['a', 'b']]);
    expect(batcher.queued).toBe(3);
    statements[0]?.finish();
    await turn();
    await turn();
    expect(statements.map((s) => s.texts)).toEqual([
      ['a', 'b'],
      ['c', 'e'],
    ]);
    statements[1]?.finish();
    await turn();
    await turn();
    expect(statements.map((s) => s.texts)).toEqual([['a', 'b'], ['c', 'e'], ['alone']]);
    statements[2]?.finish();
    expect((await results).map(textOf)).toEqual(['a', 'b', 'c', 'alone', 'e']);
  });

  it('fails only the query whose result in a batch is an error', async () => {
    const { runner, statements } = recordingRunner();
    const batcher = new WindowQueryBatcher(runner, { maxStatements: 4, maxBatch: 10 });
    const good = batcher.run(query('good'));
    const bad = batcher.run(query('bad'));
    await turn();
    await turn();
    statements[0]?.finish();
    expect(textOf(await good)).toBe('good');
    await expect(bad).rejects.toThrow('bad failed');
  });

  it('drops a cancelled query from the queue, and cancels a statement only when all its queries are cancelled', async () => {
    const { runner, statements } = recordingRunner();
    const batcher = new WindowQueryBatcher(runner, { maxStatements: 1, maxBatch: 10 });
    const first = new AbortController();
    const second = new AbortController();
    const queued = new AbortController();
    const a = batcher.run(query('a', { signal: first.signal }));
    const b = batcher.run(query('b', { signal: second.signal }));
    await turn();
    await turn();
    const c = batcher.run(query('alone', { signal: queued.signal }));
    await turn();
    expect(batcher.queued).toBe(1);
    queued.abort(new Error('queued one cancelled'));
    await expect(c).rejects.toThrow('queued one cancelled');
    expect(batcher.queued).toBe(0);

    first.abort(new Error('a cancelled'));
    await expect(a).rejects.toThrow('a cancelled');
    expect(statements[0]?.signal.aborted).toBe(false);
    second.abort(new Error('b cancelled'));
    await expect(b).rejects.toThrow('b cancelled');
    expect(statements[0]?.signal.aborted).toBe(true);
    statements[0]?.finish();
    await turn();
    await turn();
    expect(statements).toHaveLength(1);
  });
});

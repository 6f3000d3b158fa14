import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A write the test finishes by hand, with the items it was given. */
interface HeldWrite {
  readonly items: readonly string[];
  readonly finish: (error?: Error) => void;
}

/** A GroupCommit over strings whose writes wait for the test, and what it was asked to write. */
function heldCommits(concurrency: number, maxGroupBytes = 1000) {
  const writes: HeldWrite[] = [];
  const commits = new GroupCommit<string>(
    (items) =>
      new Promise<void>((resolve, reject) => {
        writes.push({ items, finish: (error) => (error ? reject(error) : resolve()) });
      }),
    { concurrency, maxGroupBytes },
  );
  return { commits, writes };
}

/** Lets settled promises run their callbacks. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes an item at once while a write is free, and groups the items that waited', async () => {
    const { commits, writes } = heldCommits(1);
    const done: string[] = [];
    const commit = (item: string) => commits.commit(item, 10).then(() => done.push(item));
    const a = commit('a');
    expect(writes.map((w) => w.items)).toEqual([['a']]);
    const rest = ['b', 'c', 'd'].map(commit);
    await settle();
    expect(writes).toHaveLength(1); // b, c and d wait for a's write
    writes[0]?.finish();
    await a;
    await settle();
    expect(writes.map((w) => w.items)).toEqual([['a'], ['b', 'c', 'd']]);
    expect(done).toEqual(['a']);
    writes[1]?.finish();
    await Promise.all(rest);
    expect(done).toEqual(['a', 'b', 'c', 'd']);
  });

  it('commitAll queues its items as one group even while a write is free, and answers each outcome in order', async () => {
    const { commits, writes } = heldCommits(2);
    const outcomes = commits.commitAll(['a', 'b', 'c'].map((item) => ({ item, bytes: 10 })));
    expect(writes.map((w) => w.items)).toEqual([['a', 'b', 'c']]);
    writes[0]?.finish(new Error('group refused'));
    await settle();
    expect(writes.slice(1).map((w) => w.items)).toEqual([['a']]);
    writes[1]?.finish();
    await settle();
    writes[2]?.finish(new Error('b refused'));
    await settle();
    writes[3]?.finish();
    expect((await outcomes).map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('keeps `concurrency` writes in flight, no more', async () => {
    const { commits, writes } = heldCommits(2);
    const all = ['a', 'b', 'c', 'd'].map((item) => commits.commit(item, 10));
    await settle();
    expect(writes.map((w) => w.items)).toEqual([['a'], ['b']]);
    writes[1]?.finish();
    await settle();
    expect(writes.map((w) => w.items)).toEqual([['a'], ['b'], ['c', 'd']]);
    writes[0]?.finish();
    writes[2]?.finish();
    await Promise.all(all);
  });

  it('stops a group at maxGroupBytes, in arrival order, and sends an item larger than that alone', async () => {
    const { commits, writes } = heldCommits(1, 100);
    const all = [commits.commit('first', 1)];
    all.push(commits.commit('a', 40), commits.commit('b', 50), commits.commit('c', 20), commits.commit('huge', 500), commits.commit('d', 1));
    for (let i = 0; i < 4; i++) {
      writes[i]?.finish();
      await settle();
    }
    expect(writes.map((w) => w.items)).toEqual([['first'], ['a', 'b'], ['c'], ['huge'], ['d']]);
    writes[4]?.finish();
    await Promise.all(all);
  });

  it('when a group fails, writes each item alone: only the item that fails again is rejected', async () => {
    const { commits, writes } = heldCommits(1);
    const first = commits.commit('first', 1);
    const outcomes = ['good', 'bad', 'also-good'].map((item) =>
      commits.commit(item, 1).then(
        () => `${item}: written`,
        (error: unknown) => `${item}: ${(error as Error).message}`,
      ),
    );
    writes[0]?.finish();
    await first;
    await settle();
    writes[1]?.finish(new Error('refused'));
    for (let i = 2; i < 5; i++) {
      await settle();
      writes[i]?.finish(writes[i]?.items[0] === 'bad' ? new Error('bad row') : undefined);
    }
    expect(await Promise.all(outcomes)).toEqual(['good: written', 'bad: bad row', 'also-good: written']);
    expect(writes.map((w) => w.items)).toEqual([['first'], ['good', 'bad', 'also-good'], ['good'], ['bad'], ['also-good']]);
  });

  it('rejects an item written alone with its own error, once', async () => {
    const { commits, writes } = heldCommits(2);
    const outcome = commits.commit('only', 1).catch((error: unknown) => (error as Error).message);
    writes[0]?.finish(new Error('disk full'));
    expect(await outcome).toBe('disk full');
    expect(writes).toHaveLength(1);
  });
});

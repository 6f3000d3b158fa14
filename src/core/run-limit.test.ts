import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from './index.js';
import { RunLimit } from './run-limit.js';

/** A run that ends when `end` is called. */
function held(): { work: () => Promise<string>; end: () => void } {
  let end = (): void => {};
  const done = new Promise<string>((resolve) => {
    end = () => resolve('done');
  });
  return { work: () => done, end };
}

describe('RunLimit', () => {
  it('refuses a caller past its share and everyone past the total, and admits again once runs end', async () => {
    const limit = new RunLimit('rule test runs', 3, 2);
    const a1 = held();
    const a2 = held();
    const b1 = held();
    const running = [limit.run('a', a1.work), limit.run('a', a2.work), limit.run('b', b1.work)];
    await expect(limit.run('a', async () => 'x')).rejects.toThrow(TooManyRequestsError);
    await expect(limit.run('c', async () => 'x')).rejects.toThrow('rule test runs: 3 are under way, the most at once; retry shortly');
    a1.end();
    await running[0];
    await expect(limit.run('a', async () => 'again')).resolves.toBe('again');
    a2.end();
    b1.end();
    await Promise.all(running);
    const results = await Promise.all([limit.run('a', async () => 1), limit.run('a', async () => 2), limit.run('c', async () => 3)]);
    expect(results).toEqual([1, 2, 3]);
  });

  it('counts a failed run as ended, and names the caller limit in the refusal', async () => {
    const limit = new RunLimit('rule test runs', 10, 1);
    await expect(limit.run('a', async () => Promise.reject(new Error('engine down')))).rejects.toThrow('engine down');
    const a = held();
    const first = limit.run('a', a.work);
    const refused = await limit.run('a', async () => 'x').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).message).toBe('rule test runs: this caller has 1 under way, the most it may; retry shortly');
    expect((refused as TooManyRequestsError).retryAfterS).toBe(1);
    a.end();
    await first;
  });
});

import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedLock', () => {
  it('runs work of one key one at a time in arrival order, other keys beside it, and goes on after a failure', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const work =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([lock.run('a', work('a1', true)), lock.run('a', work('a2')), lock.run('b', work('b1'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });
});

import { describe, expect, it } from 'vitest';
import { closeInOrder } from './close-in-order.js';

describe('closeInOrder', () => {
  it('runs every step in order even when some fail, then throws the first failure', async () => {
    const ran: string[] = [];
    const first = new Error('lock file: EPERM');
    const failure = await closeInOrder([
      () => ran.push('detections'),
      () => {
        ran.push('lock');
        throw first;
      },
      async () => {
        ran.push('engine');
        throw new Error('engine');
      },
      async () => void ran.push('store'),
    ]).catch((error: unknown) => error);
    expect(ran).toEqual(['detections', 'lock', 'engine', 'store']);
    expect(failure).toBe(first);
  });

  it('resolves when every step does', async () => {
    await expect(closeInOrder([() => undefined, async () => {}])).resolves.toBeUndefined();
  });
});

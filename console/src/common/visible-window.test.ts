import { describe, expect, it } from 'vitest';
import { visibleWindow } from './visible-window.js';

describe('the rows a scrolled list draws', () => {
  it('are those in view and a few around them', () => {
    expect(visibleWindow(0, 280, 28, 100_000)).toEqual({ first: 0, last: 18 });
    expect(visibleWindow(28 * 50_000, 280, 28, 100_000)).toEqual({ first: 49_992, last: 50_018 });
  });

  it('stop at the ends of the list', () => {
    expect(visibleWindow(28 * 99_995, 280, 28, 100_000)).toEqual({ first: 99_987, last: 100_000 });
    expect(visibleWindow(0, 280, 28, 0)).toEqual({ first: 0, last: 0 });
  });

  it('stay a bounded number however long the list', () => {
    for (const count of [10, 1000, 100_000, 10_000_000]) {
      const { first, last } = visibleWindow(count * 14, 600, 28, count);
      expect(last - first).toBeLessThanOrEqual(Math.ceil(600 / 28) + 17);
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floorDiv } from './floor-div.js';

describe('floorDiv', () => {
  it('rounds towards -∞ whatever the signs, as Math.floor does on exact quotients', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e6, max: 1e6 }),
        fc.integer({ min: -1000, max: 1000 }).filter((b) => b !== 0),
        (a, b) => {
          expect(floorDiv(BigInt(a), BigInt(b))).toBe(BigInt(Math.floor(a / b)));
        },
      ),
    );
  });
});

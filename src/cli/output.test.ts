import { describe, expect, it } from 'vitest';
import { formatBytes } from './output.js';

describe('formatBytes', () => {
  it('prints whole bytes under 1 KiB, even for a fractional rate', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(313.2530120481928)).toBe('313 B');
    expect(formatBytes(1023.4)).toBe('1023 B');
  });

  it('prints larger sizes with one decimal in binary units', () => {
    expect(formatBytes(1023.6)).toBe('1.0 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5.25 * 1024 * 1024)).toBe('5.3 MiB');
  });
});

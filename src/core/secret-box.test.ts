import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { SecretBox } from './secret-box.js';

const key = randomBytes(32);

describe('SecretBox', () => {
  it('opens what it sealed, under the same context', () => {
    const box = new SecretBox(() => key);
    const sealed = box.seal('xoxb-123-secret', 'chat_integration:acme:1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('secret');
    expect(box.open(sealed, 'chat_integration:acme:1')).toBe('xoxb-123-secret');
  });

  it('uses a fresh nonce each time: the same secret seals differently', () => {
    const box = new SecretBox(() => key);
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('refuses another context, another key, and any altered byte', () => {
    const box = new SecretBox(() => key);
    const sealed = box.seal('token', 'chat_integration:acme:1');
    expect(() => box.open(sealed, 'chat_integration:globex:1')).toThrow(ConfigError);
    expect(() => new SecretBox(() => randomBytes(32)).open(sealed, 'chat_integration:acme:1')).toThrow(ConfigError);
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    for (const at of [0, 12, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[at] = (altered[at] ?? 0) ^ 1;
      expect(() => box.open(`v1.${altered.toString('base64url')}`, 'chat_integration:acme:1')).toThrow(ConfigError);
    }
    for (const garbage of ['', 'v1.', 'v2.abc', 'plain text']) expect(() => box.open(garbage, 'c')).toThrow(ConfigError);
  });

  it('loads the key once, on first use, and refuses a key of the wrong length', () => {
    let loads = 0;
    const box = new SecretBox(() => {
      loads += 1;
      return key;
    });
    expect(loads).toBe(0);
    box.open(box.seal('a', 'c'), 'c');
    expect(loads).toBe(1);
    expect(() => new SecretBox(() => randomBytes(16)).seal('a', 'c')).toThrow(/32 bytes/);
  });
});

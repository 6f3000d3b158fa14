import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/index.js';
import { loadConfig } from './load-config.js';
import { readSecretsKey } from './secrets-key.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readSecretsKey', () => {
  it('creates a 0600 key file on first use and reads the same key afterwards', () => {
    const path = join(dir, 'first.key');
    const key = readSecretsKey({ kind: 'file', path });
    expect(key).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readSecretsKey({ kind: 'file', path })).toEqual(key);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')).toEqual(key);
  });

  it('takes an inline key and refuses malformed ones', () => {
    const key = randomBytes(32);
    expect(readSecretsKey({ kind: 'inline', base64: key.toString('base64') })).toEqual(key);
    expect(() => readSecretsKey({ kind: 'inline', base64: randomBytes(16).toString('base64') })).toThrow(ConfigError);
    const bad = join(dir, 'bad.key');
    writeFileSync(bad, 'not a key\n');
    expect(() => readSecretsKey({ kind: 'file', path: bad })).toThrow(ConfigError);
  });

  it('raises ConfigError when the file cannot be created', () => {
    expect(() => readSecretsKey({ kind: 'file', path: join(dir, 'missing', 'x.key') })).toThrow(ConfigError);
  });
});

describe('secrets key configuration', () => {
  it('defaults to secrets.key in the data dir, and takes VIGIL_SECRETS_KEY or a file path instead', () => {
    expect(loadConfig({ dataDir: '/d' }, {}, '/').security.secretsKey).toEqual({ kind: 'file', path: '/d/secrets.key' });
    expect(loadConfig({ dataDir: '/d' }, { VIGIL_SECRETS_KEY_FILE: 'k/key' }, '/w').security.secretsKey).toEqual({ kind: 'file', path: '/w/k/key' });
    const base64 = randomBytes(32).toString('base64');
    expect(loadConfig({ dataDir: '/d' }, { VIGIL_SECRETS_KEY: base64 }, '/').security.secretsKey).toEqual({ kind: 'inline', base64 });
  });

  it('reports a malformed inline key as a configuration problem', () => {
    expect(() => loadConfig({ dataDir: '/d' }, { VIGIL_SECRETS_KEY: 'short' }, '/')).toThrow(/secrets_key/);
  });
});

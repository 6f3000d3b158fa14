import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ConfigError, messageOf, secretsKeyBytes } from '../core/index.js';
import type { SecretsKeySource } from './vigil-config.js';

/** True for the base64 (or base64url) text of exactly 32 bytes. */
export function isSecretsKeyText(text: string): boolean {
  const trimmed = text.trim();
  return /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) && Buffer.from(trimmed, 'base64').length === secretsKeyBytes;
}

/**
 * The 32-byte key that seals stored secrets. A key file that does not exist yet is created with
 * 32 random bytes, readable only by the owner. Creation writes a temporary file and hard-links it
 * into place, so two processes creating the key at once agree on one key and neither ever reads a
 * half-written file. ConfigError when the key cannot be read or is malformed.
 */
export function readSecretsKey(source: SecretsKeySource): Buffer {
  if (source.kind === 'inline') return decode(source.base64, 'secrets_key');
  const existing = readIfPresent(source.path);
  if (existing !== null) return decode(existing, source.path);
  const temporary = `${source.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, `${randomBytes(secretsKeyBytes).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temporary, source.path);
    } catch (error) {
      // Another process created the key first: theirs is the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } catch (cause) {
    throw new ConfigError(`cannot create the secrets key file ${source.path}: ${messageOf(cause)}`, { cause });
  } finally {
    rmSync(temporary, { force: true });
  }
  return decode(readIfPresent(source.path) ?? '', source.path);
}

function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigError(`cannot read the secrets key file ${path}: ${messageOf(cause)}`, { cause });
  }
}

function decode(text: string, where: string): Buffer {
  if (!isSecretsKeyText(text)) throw new ConfigError(`${where} must hold the base64 of ${secretsKeyBytes} random bytes`);
  return Buffer.from(text.trim(), 'base64');
}

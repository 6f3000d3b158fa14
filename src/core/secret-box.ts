import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ConfigError } from './errors.js';

const version = 'v1';
const nonceBytes = 12;
const tagBytes = 16;
/** AES-256 takes a 32-byte key. */
export const secretsKeyBytes = 32;

/**
 * Seals the secrets the store keeps (chat bot tokens, pager integration keys, webhook headers and
 * signing secrets) with AES-256-GCM under the deployment's secrets key, so a copy of the database
 * alone reveals none of them. Each value gets a fresh random 96-bit nonce, and the `context`
 * (for example `chat_integration:<tenant>:<id>`) is authenticated with it: a sealed value copied
 * into another row or tenant does not open there.
 *
 * The key is loaded on first use, so processes that never touch a secret never create or read
 * the key file.
 */
export class SecretBox {
  private key: Buffer | null = null;

  constructor(private readonly loadKey: () => Buffer) {}

  /** Seals a secret: `v1.<base64url of nonce, ciphertext and tag>`. */
  seal(plaintext: string, context: string): string {
    const nonce = randomBytes(nonceBytes);
    const cipher = createCipheriv('aes-256-gcm', this.keyBytes(), nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${version}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** Opens a value of seal() under the same context; ConfigError when the key or context differs or the value was altered. */
  open(sealed: string, context: string): string {
    const [tag, payload] = sealed.split('.', 2);
    const bytes = tag === version && payload !== undefined ? Buffer.from(payload, 'base64url') : Buffer.alloc(0);
    if (bytes.length < nonceBytes + tagBytes) throw unsealable();
    const decipher = createDecipheriv('aes-256-gcm', this.keyBytes(), bytes.subarray(0, nonceBytes));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(nonceBytes, bytes.length - tagBytes)), decipher.final()]).toString('utf8');
    } catch (cause) {
      throw unsealable(cause);
    }
  }

  private keyBytes(): Buffer {
    if (this.key === null) {
      const key = this.loadKey();
      if (key.length !== secretsKeyBytes) throw new ConfigError(`the secrets key must be ${secretsKeyBytes} bytes, got ${key.length}`);
      this.key = key;
    }
    return this.key;
  }
}

function unsealable(cause?: unknown): ConfigError {
  return new ConfigError('cannot open a sealed secret: it was sealed under another secrets key or for another object, or it is corrupt', { cause });
}

import { randomUUID } from 'node:crypto';

/** A new random identifier for a stored object (UUID v4). */
export function newId(): string {
  return randomUUID();
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

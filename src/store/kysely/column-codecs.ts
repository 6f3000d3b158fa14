import { StoreError } from '../../core/index.js';
import type { AlertMessage } from '../../domain/index.js';

/** Epoch ms from a BIGINT column, which PostgreSQL's driver returns as a string. */
export function millisOf(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

/** Like millisOf, keeping null. */
export function nullableMillisOf(value: number | string | null): number | null {
  return value === null ? null : millisOf(value);
}

/** Parses a JSON text column that must hold an array of strings. */
export function stringArrayOf(text: string, column: string): string[] {
  const value = parseJson(text, column);
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new StoreError(`corrupt ${column} column: expected a json array of strings`);
  }
  return value;
}

/** Parses a JSON text column that must hold an object. */
export function objectOf(text: string, column: string): Record<string, unknown> {
  const value = parseJson(text, column);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StoreError(`corrupt ${column} column: expected a json object`);
  }
  return value as Record<string, unknown>;
}

function parseJson(text: string, column: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new StoreError(`corrupt ${column} column: invalid json`, { cause });
  }
}

/**
 * Parses the stored alert message of an alert or a claimed delivery. The column only ever holds
 * what the store wrote from an AlertMessage, so checking that it is an object is enough.
 */
export function alertMessageOf(text: string, column: string): AlertMessage {
  const value: object = objectOf(text, column);
  return value as AlertMessage;
}

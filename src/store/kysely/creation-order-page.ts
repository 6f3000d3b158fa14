import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { ValidationError } from '../../core/index.js';
import { decodePageToken, encodePageToken } from '../page-token.js';
import type { PageOptions } from '../store.js';

/**
 * Keyset pagination in creation order, shared by rule and sink listings. The token holds the last
 * (created_at, id) served and the next page starts strictly after it, so rows created or deleted
 * between fetches never make a page repeat or skip a row that existed throughout; rows created
 * during a walk come after every older one and are seen on a later page.
 */
export function creationOrderStart(options: PageOptions): readonly [createdAt: number, id: string] | null {
  const { pageSize } = options;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new ValidationError('page size must be a positive integer', { field: 'pagination[page_size]' });
  }
  if (!options.pageToken) return null;
  const [createdAt, id] = decodePageToken(options.pageToken, 2);
  if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || typeof id !== 'string') {
    throw new ValidationError('invalid page token', { field: 'pagination[page_token]' });
  }
  return [createdAt, id];
}

/** The condition selecting the rows after a position, for a table with `created_at` and `id`. */
export function afterPosition(position: readonly [number, string]): RawBuilder<SqlBool> {
  const [createdAt, id] = position;
  return sql<SqlBool>`(created_at > ${createdAt} or (created_at = ${createdAt} and id > ${id}))`;
}

/** Cuts the `pageSize + 1` rows fetched into a page and the token of the next one. */
export function pageOf<R extends { readonly createdAt: number; readonly id: string }>(rows: R[], pageSize: number): { items: R[]; nextPageToken: string | null } {
  const items = rows.slice(0, pageSize);
  const last = items.at(-1);
  return { items, nextPageToken: rows.length > pageSize && last !== undefined ? encodePageToken([last.createdAt, last.id]) : null };
}

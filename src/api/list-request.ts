/**
 * What a list request asks for, from its query string or, as the published SDK sends it, from a
 * JSON body on the GET: `{"tenant_id", "pagination": {"page_size", "page_token"}}`. Fastify
 * reads no body on GET, so a preValidation hook of the list routes reads it from the request
 * stream (the routes alone: other GETs keep ignoring whatever they are sent).
 */
import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '../core/index.js';
import { tenantOf } from './auth.js';
import { warn } from './published-spellings.js';
import type { FastifyReply } from 'fastify';

/** The list query of docs/interface.md 4.2-4.4, every part optional (a one-tenant key needs no tenant_id). */
export interface ListQuery {
  readonly tenant_id?: string;
  readonly 'pagination[page_size]'?: number;
  readonly 'pagination[page_token]'?: string;
}

/** The page a list request asks for. */
export interface ListRequest {
  readonly tenantId: string;
  readonly pageSize: number;
  readonly pageToken: string | undefined;
}

/**
 * A preValidation hook reading a JSON body sent with a GET into `request.body`, up to `maxBytes`.
 * A body that is not a JSON object is a 400 naming it.
 */
export function readGetBody(maxBytes: number) {
  return async (request: FastifyRequest): Promise<void> => {
    const length = request.headers['content-length'];
    if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) return;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request.raw) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new PayloadTooLargeError(`the request body is over ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ValidationError('the body of a list request must be a JSON object such as {"tenant_id": "…", "pagination": {"page_size": 50}}', { field: 'body' });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ValidationError('the body of a list request must be a JSON object', { field: 'body' });
    request.body = parsed;
  };
}

/**
 * The tenant and page a list request asks for: the query string wins, then the JSON body, then
 * the key's one tenant. `sort_order` (the published SDK's `Name`) is not supported: the answer
 * keeps creation order, with a warning.
 */
export function listRequestOf(request: FastifyRequest, reply: FastifyReply, defaultPageSize: number, maxPageSize: number): ListRequest {
  const query = request.query as ListQuery;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const pagination = body.pagination ?? {};
  if (typeof pagination !== 'object' || pagination === null || Array.isArray(pagination)) throw new ValidationError('pagination must be an object', { field: 'pagination' });
  const fromBody = pagination as Record<string, unknown>;
  const bodyTenant = body.tenant_id;
  if (bodyTenant !== undefined && (typeof bodyTenant !== 'string' || bodyTenant === '' || bodyTenant.length > 64)) {
    throw new ValidationError('tenant_id must be a string of 1 to 64 characters', { field: 'tenant_id' });
  }
  const size = query['pagination[page_size]'] ?? fromBody.page_size ?? null;
  if (size !== null && (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > maxPageSize)) {
    throw new ValidationError(`pagination.page_size must be an integer from 1 to ${maxPageSize}`, { field: 'pagination.page_size' });
  }
  const token = query['pagination[page_token]'] ?? fromBody.page_token ?? null;
  if (token !== null && typeof token !== 'string') throw new ValidationError('pagination.page_token must be a string', { field: 'pagination.page_token' });
  if (body.sort_order !== undefined && body.sort_order !== null) warn(reply, ['sort_order is not supported: the list is in creation order']);
  return {
    tenantId: tenantOf(request, query.tenant_id ?? (bodyTenant as string | undefined)),
    pageSize: (size as number | null) ?? defaultPageSize,
    pageToken: token === null || token === '' ? undefined : (token as string),
  };
}

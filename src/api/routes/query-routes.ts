import type { FastifyInstance } from 'fastify';
import type { ApiCompat } from '../../config/index.js';
import { wireRowId, type QuerySnapshot, type SearchService } from '../../search/index.js';
import { tenantOf, visibleTenants } from '../auth.js';
import { abortOnHangUp } from '../client-hang-up.js';
import { publishedColumn, publishedRow } from '../published-names.js';
import { QueryBody, QueryIdParams, QueryProgressQuery, QueryStartResponse, errorResponses } from '../schemas.js';

/**
 * The result object of docs/interface.md 2.2; progress rows are flat, blocking rows carry their row id.
 * `column_tags` (no column has tags) and `table_type` (`LogSearch` for events, `GenericTable` for
 * an aggregated table) are fields the published SDK requires. With `api_compat: scanner`, rows of
 * both endpoints carry their row id as that SDK parses them, and `@svc.` columns are `@scanner.`.
 */
function resultBody(snapshot: QuerySnapshot, rows: 'flat' | 'withRowId', showRows: boolean, compat: ApiCompat): Record<string, unknown> {
  const done = snapshot.status !== 'running';
  const visible = showRows || done ? snapshot.rows : [];
  const shape = compat === 'scanner' ? 'withRowId' : rows;
  return {
    is_completed: done,
    results: {
      column_ordering: visible.length > 0 || done ? snapshot.columns.map((name) => publishedColumn(name, compat)) : [],
      column_tags: {},
      rows: visible.map((row, i) => {
        const columns = publishedRow(row.columns, compat);
        return shape === 'flat' ? columns : { row_id: wireRowId(row, i), columns };
      }),
      table_type: snapshot.kind === 'events' ? 'LogSearch' : 'GenericTable',
    },
    metadata: {
      n_bytes_scanned: snapshot.bytesScanned,
      // Not in the reference interface: tells a client the table stopped at max_bytes.
      truncated: snapshot.truncated,
      ...(snapshot.status === 'cancelled' ? { cancelled: true } : {}),
    },
  };
}

// The published SDK types these as nullable and may send null for "not given".
const nullableFields = ['start_time', 'end_time', 'start_leid', 'end_leid'];

/** preValidation: a null among the nullable fields is read as the field left out. */
async function dropNulls(request: { body: unknown }): Promise<void> {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  for (const field of nullableFields) if ((body as Record<string, unknown>)[field] === null) delete (body as Record<string, unknown>)[field];
}

/** The ad hoc query endpoints of docs/interface.md 4.1. */
export function registerQueryRoutes(app: FastifyInstance, search: SearchService, compat: ApiCompat): void {
  app.post<{ Body: QueryBody }>(
    '/v1/start_query',
    {
      schema: {
        summary: 'Start an ad hoc query; poll query_progress with the qr_id',
        tags: ['queries'],
        body: QueryBody,
        response: { 200: QueryStartResponse, ...errorResponses },
      },
      preValidation: dropNulls,
    },
    async (request) => {
      const { tenant_id: tenantId, ...body } = request.body;
      const qrId = await search.start(tenantOf(request, tenantId), body);
      return { qr_id: qrId };
    },
  );

  app.get<{ Params: QueryIdParams; Querystring: QueryProgressQuery }>(
    '/v1/query_progress/:qr_id',
    { schema: { summary: 'Progress and results of a started query', tags: ['queries'], params: QueryIdParams, querystring: QueryProgressQuery, response: errorResponses } },
    async (request) => {
      const snapshot = await search.progress(request.params.qr_id, visibleTenants(request, request.query.tenant_id));
      return resultBody(snapshot, 'flat', request.query.show_intermediate_results ?? true, compat);
    },
  );

  app.post<{ Params: QueryIdParams; Querystring: QueryProgressQuery }>(
    '/v1/cancel_query/:qr_id',
    {
      schema: {
        summary: 'Cancel a query (204 whatever its state, even unknown)',
        tags: ['queries'],
        params: QueryIdParams,
        querystring: QueryProgressQuery,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      await search.cancel(request.params.qr_id, visibleTenants(request, request.query.tenant_id));
      return reply.status(204).send();
    },
  );

  app.post<{ Body: QueryBody }>(
    '/v1/blocking_query',
    {
      schema: { summary: 'Run a query and answer when it completes (504 past the time limit)', tags: ['queries'], body: QueryBody, response: errorResponses },
      preValidation: dropNulls,
    },
    async (request, reply) => {
      const { tenant_id: tenantId, ...body } = request.body;
      const signal = abortOnHangUp(reply);
      const snapshot = await search.blocking(tenantOf(request, tenantId), body, signal);
      return resultBody(snapshot, 'withRowId', true, compat);
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { wireRowId, type QuerySnapshot, type SearchService } from '../../search/index.js';
import { tenantOf, visibleTenants } from '../auth.js';
import { QueryBody, QueryIdParams, QueryProgressQuery, QueryStartResponse, errorResponses } from '../schemas.js';

/** The result object of interface 2.2; progress rows are flat, blocking rows carry their row id. */
function resultBody(snapshot: QuerySnapshot, rows: 'flat' | 'withRowId', showRows: boolean): Record<string, unknown> {
  const done = snapshot.status !== 'running';
  const visible = showRows || done ? snapshot.rows : [];
  return {
    is_completed: done,
    results: {
      column_ordering: visible.length > 0 || done ? snapshot.columns : [],
      rows: visible.map((row, i) => (rows === 'flat' ? row.columns : { row_id: wireRowId(row, i), columns: row.columns })),
    },
    metadata: {
      n_bytes_scanned: snapshot.bytesScanned,
      // Not in the reference interface: tells a client the table stopped at max_bytes.
      truncated: snapshot.truncated,
      ...(snapshot.status === 'cancelled' ? { cancelled: true } : {}),
    },
  };
}

/** The ad hoc query endpoints of interface 4.1. */
export function registerQueryRoutes(app: FastifyInstance, search: SearchService): void {
  app.post<{ Body: QueryBody }>(
    '/v1/start_query',
    { schema: { summary: 'Start an ad hoc query; poll query_progress with the qr_id', tags: ['queries'], body: QueryBody, response: { 200: QueryStartResponse, ...errorResponses } } },
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
      return resultBody(snapshot, 'flat', request.query.show_intermediate_results ?? true);
    },
  );

  app.post<{ Params: QueryIdParams; Querystring: QueryProgressQuery }>(
    '/v1/cancel_query/:qr_id',
    { schema: { summary: 'Cancel a query (204 whatever its state, even unknown)', tags: ['queries'], params: QueryIdParams, querystring: QueryProgressQuery, response: errorResponses } },
    async (request, reply) => {
      await search.cancel(request.params.qr_id, visibleTenants(request, request.query.tenant_id));
      return reply.status(204).send();
    },
  );

  app.post<{ Body: QueryBody }>(
    '/v1/blocking_query',
    { schema: { summary: 'Run a query and answer when it completes (504 past the time limit)', tags: ['queries'], body: QueryBody, response: errorResponses } },
    async (request, reply) => {
      const { tenant_id: tenantId, ...body } = request.body;
      // A client that hangs up before the answer cancels its query in the engine.
      const abort = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const snapshot = await search.blocking(tenantOf(request, tenantId), body, abort.signal);
      return resultBody(snapshot, 'withRowId', true);
    },
  );
}

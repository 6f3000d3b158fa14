import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../../core/index.js';
import type { IngestService } from '../../services/index.js';
import { actorOf, assertTenantAccess } from '../auth.js';
import type { ApiMetrics } from '../metrics.js';
import { IngestQuery, IngestResponse, errorResponses } from '../schemas.js';

/**
 * `POST /v1/ingest`: NDJSON (or gzip of it, by `Content-Encoding: gzip` or magic bytes) into an
 * index. Bad lines are reported with their line numbers and never lose the good ones; the answer
 * comes only after every good line is durably written.
 */
export function registerIngestRoutes(app: FastifyInstance, ingest: IngestService, metrics: ApiMetrics, maxBytes: number): void {
  void app.register(async (scope) => {
    // The body is streamed straight into the ingester, never buffered or parsed by Fastify.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.post<{ Querystring: IngestQuery }>(
      '/v1/ingest',
      {
        schema: {
          summary: 'Ingest NDJSON events into an index',
          tags: ['ingest'],
          querystring: IngestQuery,
          response: { 200: IngestResponse, 413: errorResponses[400], 415: errorResponses[400], ...errorResponses },
        },
      },
      async (request) => {
        const query = request.query;
        assertTenantAccess(request, query.tenant_id);
        checkEncoding(request);
        const declared = Number(request.headers['content-length'] ?? NaN);
        if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(`request body exceeds ${maxBytes} bytes`);
        const body = (request.body ?? request.raw) as Readable;
        const { summary, duplicate } = await ingest.ingest(
          {
            tenantId: query.tenant_id,
            index: query.index,
            createIndex: query.create_index ?? false,
            format: query.format ?? 'ndjson',
            maxBytes,
            ...(query.source_type !== undefined ? { sourceType: query.source_type } : {}),
            ...(query.timestamp_field !== undefined ? { timestampField: query.timestamp_field } : {}),
            ...(query.ingest_id !== undefined ? { ingestId: query.ingest_id } : {}),
          },
          body,
          actorOf(request),
        );
        if (!duplicate) metrics.recordIngest('ndjson', summary);
        const { ingested, rejected, withoutTime, errors, format, gzip, bytes } = summary;
        return { ingested, rejected, events_without_time: withoutTime, errors, format, gzip, bytes, duplicate };
      },
    );
  });
}

function checkEncoding(request: FastifyRequest): void {
  const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw new UnsupportedMediaTypeError(`unsupported Content-Encoding ${JSON.stringify(encoding)}: send identity or gzip`);
  }
}

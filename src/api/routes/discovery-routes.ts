import type { FastifyInstance } from 'fastify';
import { formatRfc3339Ns } from '../../core/index.js';
import type { SearchService } from '../../search/index.js';
import { tenantOf } from '../auth.js';
import { abortOnHangUp } from '../client-hang-up.js';
import { FieldValuesBody, FieldValuesResponse, HistogramBody, HistogramStartResponse } from '../console-schemas.js';
import { errorResponses } from '../schemas.js';

/** A range bound as RFC 3339: without a fraction when whole seconds, else with nine digits. */
function formatBound(ns: bigint): string {
  return ns % 1_000_000_000n === 0n ? new Date(Number(ns / 1_000_000n)).toISOString().replace('.000Z', 'Z') : formatRfc3339Ns(ns);
}

/** The search page's discovery endpoints over a query: a field's top values and the event histogram (docs/api.md). */
export function registerDiscoveryRoutes(app: FastifyInstance, search: SearchService): void {
  app.post<{ Body: FieldValuesBody }>(
    '/v1/field_values',
    {
      schema: {
        summary: 'The most frequent values of a field among the events of a query',
        tags: ['queries'],
        body: FieldValuesBody,
        response: { 200: FieldValuesResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { tenant_id: tenantId, ...body } = request.body;
      const signal = abortOnHangUp(reply);
      const values = await search.fieldValues(tenantOf(request, tenantId), body, signal);
      return { field: values.field, events: values.events, values: values.values.map((v) => ({ value: v.value, count: v.count })), other_count: values.otherCount };
    },
  );

  app.post<{ Body: HistogramBody }>(
    '/v1/start_histogram',
    {
      schema: {
        summary: 'Start counting a query’s events per time bucket; poll query_progress, stop with cancel_query',
        tags: ['queries'],
        body: HistogramBody,
        response: { 200: HistogramStartResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { tenant_id: tenantId, ...body } = request.body;
      const started = await search.startHistogram(tenantOf(request, tenantId), body);
      return {
        qr_id: started.qrId,
        bucket_s: Number(started.buckets.bucketNs / 1_000_000_000n),
        start_time: formatBound(started.range.startNs),
        end_time: formatBound(started.range.endNs),
      };
    },
  );
}

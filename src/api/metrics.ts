import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The service's Prometheus metrics; one registry per API instance. */
export class ApiMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'vigil_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'vigil_http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly ingestEvents = new Counter({
    name: 'vigil_ingest_events_total',
    help: 'Events received for ingestion, by result (ingested or rejected)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly ingestBytes = new Counter({
    name: 'vigil_ingest_bytes_total',
    help: 'Decoded bytes received for ingestion',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'vigil_' });
  }
}

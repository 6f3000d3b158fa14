import type { FastifyInstance } from 'fastify';
import type { IngestService, KeyService, TenantService } from '../../services/index.js';
import { ShipperIngest, type ShipperLimits } from '../../shippers/index.js';
import type { ApiMetrics } from '../metrics.js';
import { registerElasticsearchRoutes } from './elasticsearch-routes.js';
import { registerLokiRoutes } from './loki-routes.js';
import { registerOtlpRoutes } from './otlp-routes.js';
import { registerSplunkHecRoutes } from './splunk-hec-routes.js';

export interface ShipperSettings extends ShipperLimits {
  /** Largest request body, as sent and decoded. */
  readonly maxBodyBytes: number;
}

/** Defaults of the shipper settings (the config's, for callers that build the API without one). */
export const defaultShipperSettings: ShipperSettings = { maxBodyBytes: 32 * 1024 * 1024, maxConcurrent: 8, maxConcurrentPerTenant: 4 };

/**
 * The shipper protocols, each outside `/v1`'s bearer-key hook with its own auth conventions
 * (docs/shippers.md): Elasticsearch bulk and handshake, Splunk HEC, OTLP/HTTP logs, Loki push.
 */
export function registerShipperRoutes(
  app: FastifyInstance,
  services: { keys: KeyService; tenants: TenantService; ingest: IngestService },
  metrics: ApiMetrics,
  settings: ShipperSettings,
): void {
  const { keys, tenants, ingest } = services;
  const deps = { keys, tenants, ingest: new ShipperIngest(ingest, settings), metrics, maxBodyBytes: settings.maxBodyBytes };
  registerElasticsearchRoutes(app, deps);
  registerSplunkHecRoutes(app, deps);
  registerOtlpRoutes(app, deps);
  registerLokiRoutes(app, deps);
}

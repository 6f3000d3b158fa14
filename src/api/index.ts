/**
 * api: HTTP only — Fastify routes per resource, API-key auth and tenant scoping, TypeBox schemas
 * (validation and OpenAPI), error mapping to statuses, health and metrics. Never SQL; imports core,
 * domain, config, query, services, search, ingest, detections, store, engine and shippers.
 */
export { buildApi, type ApiOptions } from './app.js';
export { httpStatusOf } from './error-mapping.js';
export { ApiMetrics } from './metrics.js';
export type { ReadinessCheck } from './routes/health-routes.js';
export { toDetectionRuleObject } from './routes/detection-rule-routes.js';
export { toEventSinkObject } from './routes/event-sink-routes.js';
export { toAlertObject, toAlertDetailObject } from './routes/alert-routes.js';
export { toSyncSourceObject } from './routes/sync-source-routes.js';
export { toPreviewBody } from './routes/rule-preview-routes.js';
export type { PreviewResponseBody } from './console-schemas.js';

/**
 * api: HTTP only. Fastify routes per resource, API-key auth and tenant scoping, JSON schemas
 * (validation and the OpenAPI document come from the same TypeBox schemas), the mapping of
 * error codes to statuses, health and Prometheus metrics. Never SQL; imports services.
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

import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Logger as PinoLogger } from 'pino';
import { NotFoundError, newId } from '../core/index.js';
import type { Services } from '../services/index.js';
import type { ApiCompat } from '../config/index.js';
import { requireApiKey } from './auth.js';
import { handleError } from './error-mapping.js';
import { answerClientError, answerFrameworkError, maxPathParamLength } from './framework-errors.js';
import { acceptEmptyJsonBodies } from './json-body.js';
import { resolveTenantReferences } from './tenant-references.js';
import { buildRequestValidator } from './request-validator.js';
import { ApiMetrics } from './metrics.js';
import { RouteMethods } from './route-methods.js';
import { registerHealthRoutes, type ReadinessCheck } from './routes/health-routes.js';
import { registerAlertRoutes } from './routes/alert-routes.js';
import { registerApiKeyRoutes } from './routes/api-key-routes.js';
import { registerDiscoveryRoutes } from './routes/discovery-routes.js';
import { registerMeRoutes } from './routes/me-routes.js';
import { registerRulePreviewRoutes } from './routes/rule-preview-routes.js';
import { registerDetectionRuleRoutes } from './routes/detection-rule-routes.js';
import { registerDetectionRuleYamlRoutes } from './routes/detection-rule-yaml-routes.js';
import { registerEventSinkRoutes } from './routes/event-sink-routes.js';
import { registerConsoleRoutes, type ConsolePageFallback } from './routes/console-routes.js';
import { registerIndexRoutes } from './routes/index-routes.js';
import { registerInfoRoutes } from './routes/info-routes.js';
import { registerLookupTableRoutes } from './routes/lookup-table-routes.js';
import { registerIngestRoutes } from './routes/ingest-routes.js';
import { registerQueryRoutes } from './routes/query-routes.js';
import { registerRepositorySyncRoutes } from './routes/repository-sync-routes.js';
import { registerSchemaRoutes } from './routes/schema-routes.js';
import { registerSyncSourceRoutes } from './routes/sync-source-routes.js';
import { defaultShipperSettings, registerShipperRoutes, type ShipperSettings } from './shippers/register-shipper-routes.js';
import { AlertObject } from './alert-schemas.js';
import { DetectionRuleObject, EventSinkObject } from './detection-schemas.js';
import { ErrorBody, IndexObject } from './schemas.js';
import { SyncSourceObject } from './sync-schemas.js';

export interface ApiOptions {
  readonly services: Services;
  /** A pino logger; Fastify logs each request through it with its request id. */
  readonly logger: PinoLogger;
  readonly maxJsonBodyBytes: number;
  readonly maxIngestBytes: number;
  readonly readiness: readonly ReadinessCheck[];
  readonly version: string;
  /** The metrics registry to serve on /metrics; one is made when absent. */
  readonly metrics?: ApiMetrics;
  /** Whose names responses use (config `api_compat`); default `vigil`. */
  readonly apiCompat?: ApiCompat;
  /** The web console's built files, served at `/`; no console when absent. */
  readonly consoleDir?: string;
  /** Body and concurrency limits of the shipper protocols (defaults when absent). */
  readonly shippers?: ShipperSettings;
}

/** Builds the HTTP API (not yet listening). Routes are testable in process with `app.inject`. */
export async function buildApi(options: ApiOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.maxJsonBodyBytes,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : newId();
    },
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: false }),
    schemaController: { compilersFactory: { buildValidator: buildRequestValidator as never } },
    routerOptions: { maxParamLength: maxPathParamLength },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  const metrics = options.metrics ?? new ApiMetrics();
  const compat = options.apiCompat ?? 'vigil';

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Vigil API', version: options.version, description: 'Log search and detection service' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  app.addSchema(ErrorBody);
  app.addSchema(IndexObject);
  app.addSchema(DetectionRuleObject);
  app.addSchema(EventSinkObject);
  app.addSchema(AlertObject);
  app.addSchema(SyncSourceObject);

  acceptEmptyJsonBodies(app);
  app.setErrorHandler(handleError);
  const routeMethods = new RouteMethods();
  app.addHook('onRoute', (route) => routeMethods.add(route.method, route.url));
  let consolePage: ConsolePageFallback = () => null;
  app.setNotFoundHandler(async (request, reply) => {
    // A browser opening a console page (a link to /search?q=…) gets the console, which routes it.
    const page = consolePage(request, reply);
    if (page) return page;
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path; // never echo a long path whole
    // A path that exists under other methods (PATCH where PUT is meant) is 405, not an unknown route.
    const allowed = routeMethods.allowedFor(path);
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send({ error: `method ${request.method} is not allowed on ${shown}: use ${allowed.join(', ')}` });
    }
    throw new NotFoundError(`no route ${request.method} ${shown}`);
  });
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  registerHealthRoutes(app, options.readiness, metrics);
  registerSchemaRoutes(app);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  if (options.consoleDir) consolePage = registerConsoleRoutes(app, options.consoleDir);
  // Shipper protocols live outside /v1's hook: each takes its shippers' own credentials.
  if (options.services.ingest) {
    const { keys, tenants, ingest } = options.services;
    registerShipperRoutes(app, { keys, tenants, ingest }, metrics, options.shippers ?? defaultShipperSettings);
  }

  await app.register(async (v1) => {
    // onRequest, not preHandler: authentication comes before body parsing and schema validation.
    v1.addHook('onRequest', requireApiKey(options.services.keys));
    // preHandler: after list routes read a GET's JSON body (list-request.ts), before any handler.
    v1.addHook('preHandler', resolveTenantReferences(options.services.tenants));
    registerMeRoutes(v1, options.services.tenants);
    registerApiKeyRoutes(v1, options.services.keys);
    registerIndexRoutes(v1, options.services.indexes, options.services.insights);
    registerDetectionRuleRoutes(v1, options.services.rules, options.maxJsonBodyBytes);
    registerDetectionRuleYamlRoutes(v1, options.services.ruleFiles);
    if (options.services.previews) registerRulePreviewRoutes(v1, options.services.previews);
    registerEventSinkRoutes(v1, options.services.sinks, { compat, maxJsonBodyBytes: options.maxJsonBodyBytes, tests: options.services.sinkTests });
    registerAlertRoutes(v1, options.services.alerts);
    registerSyncSourceRoutes(v1, options.services.syncSources);
    registerInfoRoutes(v1, options.services.queryCapacity);
    registerLookupTableRoutes(v1, options.services.lookupTables, options.services.tenants);
    if (options.services.repositorySync) registerRepositorySyncRoutes(v1, options.services.repositorySync, options.services.tenants);
    if (options.services.ingest) registerIngestRoutes(v1, options.services.ingest, metrics, options.maxIngestBytes);
    if (options.services.search) {
      registerQueryRoutes(v1, options.services.search, compat);
      registerDiscoveryRoutes(v1, options.services.search);
    }
  });
  return app;
}

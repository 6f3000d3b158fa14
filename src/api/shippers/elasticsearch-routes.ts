import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../../core/index.js';
import { bulkResponse, elasticsearchErrorBody, elasticsearchLicense, elasticsearchVersionDocument, parseBulkBody, type BulkItem } from '../../shippers/index.js';
import { actorOf } from '../auth.js';
import { elasticsearchClientConstraint, elasticsearchClientRoute } from './elasticsearch-client-constraint.js';
import { authenticateShipper, credentialOf, shipperTenantOf } from './shipper-auth.js';
import { readShipperBody } from './shipper-body.js';
import { recordShipperIngest, registerShipperScope, type ShipperFailure, type ShipperRouteDeps } from './shipper-scope.js';

const protocol = 'elasticsearch';
const clusterUuid = 'dmlnaWwtZWxhc3RpY3NlYXJj';

type IndexParams = { index?: string; id?: string };
type TenantQuery = { tenant_id?: string };

/**
 * The Elasticsearch API shippers use (docs/shippers.md): `_bulk` (and single documents), and the
 * handshake Beats, Logstash, Vector and Fluent Bit make first: `GET /` (only for clients, not
 * browsers: see elasticsearch-client-constraint.ts), the license, cluster health, and the
 * template, policy, pipeline and data stream probes, answered harmlessly. Auth: ApiKey, Basic or
 * Bearer; the index is the action's `_index` or the path's.
 */
export function registerElasticsearchRoutes(app: FastifyInstance, deps: ShipperRouteDeps): void {
  app.addConstraintStrategy(elasticsearchClientConstraint);
  registerShipperScope(app, protocol, deps, answerFailure, (scope) => {
    scope.addHook('onSend', async (_request, reply) => {
      void reply.header('x-elastic-product', 'Elasticsearch');
    });
    const authenticated = { onRequest: async (request: FastifyRequest) => authenticate(deps, request) };
    const hide = { schema: { hide: true } };

    scope.get('/', { ...hide, ...authenticated, ...elasticsearchClientRoute }, async () => elasticsearchVersionDocument(clusterUuid));
    scope.get('/_license', { ...hide, ...authenticated }, async () => elasticsearchLicense());
    scope.get('/_xpack', { ...hide, ...authenticated }, async () => ({
      build: { hash: 'vigil', date: '2025-07-01T00:00:00.000Z' },
      license: { uid: '00000000-0000-0000-0000-000000000000', type: 'basic', mode: 'basic', status: 'active' },
      features: {},
      tagline: 'You know, for X',
    }));
    for (const path of ['/_cluster/health', '/_cluster/health/:index']) {
      scope.get(path, { ...hide, ...authenticated }, async () => ({
        cluster_name: 'vigil',
        status: 'green',
        timed_out: false,
        number_of_nodes: 1,
        number_of_data_nodes: 1,
        active_primary_shards: 0,
        active_shards: 0,
        relocating_shards: 0,
        initializing_shards: 0,
        unassigned_shards: 0,
        delayed_unassigned_shards: 0,
        number_of_pending_tasks: 0,
        number_of_in_flight_fetch: 0,
        task_max_waiting_in_queue_millis: 0,
        active_shards_percent_as_number: 100,
      }));
    }
    // Probes for templates, lifecycle policies, ingest pipelines and data streams: they all
    // "exist" and every change is acknowledged, so a shipper's setup step passes and nothing changes.
    for (const [prefix, shape] of Object.entries(setupResources)) {
      const path = `/${prefix}/:name`;
      scope.route({
        method: ['GET', 'HEAD'],
        url: path,
        ...hide,
        ...authenticated,
        handler: async (request: FastifyRequest<{ Params: { name: string } }>) => shape(request.params.name),
      });
      scope.route({ method: ['PUT', 'POST'], url: path, ...hide, ...authenticated, handler: async () => ({ acknowledged: true }) });
    }

    const bulk = async (request: FastifyRequest<{ Params: IndexParams; Querystring: TenantQuery }>) => {
      const started = performance.now();
      const body = await readShipperBody(request, deps.maxBodyBytes);
      const items = parseBulkBody(body.toString('utf8'), request.params.index ?? null);
      if (items.length === 0) throw new ValidationError('Validation Failed: 1: no requests added;');
      return bulkResponse(items, await ingestItems(deps, request, items), performance.now() - started);
    };
    scope.route({ method: ['POST', 'PUT'], url: '/_bulk', ...hide, ...authenticated, handler: bulk });
    scope.route({ method: ['POST', 'PUT'], url: '/:index/_bulk', ...hide, ...authenticated, handler: bulk });

    const single = async (request: FastifyRequest<{ Params: IndexParams; Querystring: TenantQuery }>, reply: FastifyReply, action: 'index' | 'create') => {
      const body = (await readShipperBody(request, deps.maxBodyBytes)).toString('utf8').trim();
      if (body === '' || body.includes('\n')) throw new ValidationError('request body is required: one JSON document');
      const index = request.params.index ?? null;
      const item: BulkItem = { action, index, id: request.params.id ?? null, record: { index, line: body } };
      const answer = bulkResponse([item], await ingestItems(deps, request, [item]), 0) as { items: Record<string, Record<string, unknown>>[] };
      const result = answer.items[0]?.[action] ?? {};
      const status = Number(result['status'] ?? 500);
      if (status !== 201) return reply.status(status).send(elasticsearchErrorBody(status, result['error'] as never));
      const { status: _status, ...rest } = result;
      return reply.status(201).send(rest);
    };
    scope.post('/:index/_doc', { ...hide, ...authenticated }, (request: FastifyRequest<{ Params: IndexParams; Querystring: TenantQuery }>, reply) =>
      single(request, reply, 'index'),
    );
    scope.route({
      method: ['PUT', 'POST'],
      url: '/:index/_doc/:id',
      ...hide,
      ...authenticated,
      handler: (request: FastifyRequest<{ Params: IndexParams; Querystring: TenantQuery }>, reply) => single(request, reply, 'index'),
    });
    scope.route({
      method: ['PUT', 'POST'],
      url: '/:index/_create/:id',
      ...hide,
      ...authenticated,
      handler: (request: FastifyRequest<{ Params: IndexParams; Querystring: TenantQuery }>, reply) => single(request, reply, 'create'),
    });
  });
}

async function authenticate(deps: ShipperRouteDeps, request: FastifyRequest): Promise<void> {
  const tenantId = (request.query as TenantQuery).tenant_id;
  await authenticateShipper(deps, request, credentialOf(request, ['apikey', 'basic', 'bearer']), typeof tenantId === 'string' ? tenantId : null);
}

async function ingestItems(deps: ShipperRouteDeps, request: FastifyRequest, items: readonly BulkItem[]) {
  const result = await deps.ingest.run({ tenantId: shipperTenantOf(request), records: items.map((item) => item.record), defaultIndex: null, actor: actorOf(request) });
  recordShipperIngest(deps, protocol, result);
  return result.outcomes;
}

/** What a GET of each setup resource answers: one that exists, with nothing in it. */
const setupResources: Readonly<Record<string, (name: string) => unknown>> = {
  _index_template: (name) => ({ index_templates: [{ name, index_template: { index_patterns: [`${name}*`], template: {}, composed_of: [] } }] }),
  _component_template: (name) => ({ component_templates: [{ name, component_template: { template: {} } }] }),
  _template: (name) => ({ [name]: { order: 0, index_patterns: [`${name}*`], settings: {}, mappings: {}, aliases: {} } }),
  '_ilm/policy': (name) => ({ [name]: { version: 1, modified_date: '2025-07-01T00:00:00.000Z', policy: { phases: {} } } }),
  '_ingest/pipeline': (name) => ({ [name]: { description: 'accepted by vigil, which stores events as they arrive', processors: [] } }),
  _data_stream: (name) => ({ data_streams: [{ name, timestamp_field: { name: '@timestamp' }, indices: [], generation: 1, status: 'GREEN', template: name }] }),
};

function answerFailure(failure: ShipperFailure, request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?')[0] ?? '';
  const error = ((): { type: string; reason: string } => {
    switch (failure.kind) {
      case 'unauthenticated':
        void reply.header('www-authenticate', 'Basic realm="security", ApiKey');
        return {
          type: 'security_exception',
          reason: `${failure.message}: send Authorization: ApiKey base64(<tenant>:<key>), Basic base64(<tenant>:<key>) or Bearer <key> [${path}]`,
        };
      case 'forbidden':
        return { type: 'security_exception', reason: failure.message };
      case 'throttled':
        return { type: 'es_rejected_execution_exception', reason: failure.message };
      case 'unavailable':
        return { type: 'unavailable_shards_exception', reason: failure.message };
      case 'too_large':
        return { type: 'content_too_long_exception', reason: failure.message };
      case 'not_found':
        return { type: 'resource_not_found_exception', reason: failure.message };
      case 'unsupported_media':
      case 'bad_request':
        return { type: 'illegal_argument_exception', reason: failure.message };
    }
  })();
  void reply.status(failure.status).header('x-elastic-product', 'Elasticsearch').send(elasticsearchErrorBody(failure.status, error));
}

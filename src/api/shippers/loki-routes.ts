import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError } from '../../core/index.js';
import { decodeLokiJson, decodeLokiProtobuf } from '../../shippers/index.js';
import { actorOf } from '../auth.js';
import { authenticateShipper, credentialOf, shipperTenantOf } from './shipper-auth.js';
import { readShipperBody } from './shipper-body.js';
import { recordShipperIngest, registerShipperScope, requestIndex, throwIfAnyFailed, type ShipperFailure, type ShipperRouteDeps } from './shipper-scope.js';

const protocol = 'loki';
/** Where entries go when neither their stream nor the request name an index. */
const defaultLokiIndex = 'loki';

interface LokiQuery {
  tenant_id?: string;
  index?: string;
}

/**
 * Loki's push API (docs/shippers.md): `POST /loki/api/v1/push`, JSON (gzip or not) or
 * snappy-compressed protobuf. Auth: Bearer or Basic; `X-Scope-OrgID` names the tenant. Answers
 * 204 when every entry is stored; 400 with the problems as text when some are refused (the
 * others are stored), as Loki does.
 */
export function registerLokiRoutes(app: FastifyInstance, deps: ShipperRouteDeps): void {
  registerShipperScope(app, protocol, deps, answerFailure, (scope) => {
    scope.post(
      '/loki/api/v1/push',
      {
        schema: { hide: true },
        onRequest: async (request: FastifyRequest) => {
          const orgId = request.headers['x-scope-orgid'];
          const explicit = typeof orgId === 'string' && orgId !== '' ? orgId : ((request.query as LokiQuery).tenant_id ?? null);
          await authenticateShipper(deps, request, credentialOf(request, ['bearer', 'basic']), explicit);
        },
      },
      async (request, reply) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        const protobuf = type === 'application/x-protobuf' || type === 'application/protobuf';
        if (!protobuf && type !== 'application/json')
          throw new UnsupportedMediaTypeError(`unsupported Content-Type ${JSON.stringify(type)}: send application/json or application/x-protobuf (snappy)`);
        const body = await readShipperBody(request, deps.maxBodyBytes, { snappy: protobuf });
        const records = protobuf ? decodeLokiProtobuf(body) : decodeLokiJson(body.toString('utf8'));
        const defaultIndex = requestIndex(request, defaultLokiIndex);
        const result = await deps.ingest.run({ tenantId: shipperTenantOf(request), records, defaultIndex, timestampField: '@timestamp', actor: actorOf(request) });
        recordShipperIngest(deps, protocol, result);
        throwIfAnyFailed(result);
        const problems = result.outcomes.flatMap((o, at) => (o.kind === 'invalid' || o.kind === 'no_index' ? [`entry ${at}: ${o.error}`] : []));
        if (problems.length === 0) return reply.status(204).send();
        const shown = problems.slice(0, 10).join('\n');
        const more = problems.length > 10 ? `\n… and ${problems.length - 10} more` : '';
        return reply
          .status(400)
          .type('text/plain; charset=utf-8')
          .send(`${problems.length} of ${records.length} entries were refused (the others were stored):\n${shown}${more}\n`);
      },
    );
  });
}

function answerFailure(failure: ShipperFailure, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.status(failure.status).type('text/plain; charset=utf-8').send(`${failure.message}\n`);
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError } from '../../core/index.js';
import { decodeOtlpJson, decodeOtlpProtobuf, exportLogsResponseType, statusType } from '../../shippers/index.js';
import { actorOf } from '../auth.js';
import { authenticateShipper, credentialOf, shipperTenantOf } from './shipper-auth.js';
import { readShipperBody } from './shipper-body.js';
import { recordShipperIngest, registerShipperScope, requestIndex, throwIfAnyFailed, type ShipperFailure, type ShipperRouteDeps } from './shipper-scope.js';

const protocol = 'otlp';
/** Where log records go when neither they, their resource nor the request name an index. */
const defaultOtlpIndex = 'otel';

interface OtlpQuery {
  tenant_id?: string;
  index?: string;
}

type Encoding = 'protobuf' | 'json';

/**
 * OTLP/HTTP logs (docs/shippers.md): `POST /v1/logs` in the protobuf or JSON encoding, gzip or
 * not. Auth: Bearer or Basic. Records are stored one event each; records refused are counted in
 * the partial-success answer, as OTLP asks, and the others are kept.
 */
export function registerOtlpRoutes(app: FastifyInstance, deps: ShipperRouteDeps): void {
  registerShipperScope(app, protocol, deps, answerFailure, (scope) => {
    scope.post(
      '/v1/logs',
      {
        schema: { hide: true },
        onRequest: async (request: FastifyRequest) => {
          const query = request.query as OtlpQuery;
          await authenticateShipper(deps, request, credentialOf(request, ['bearer', 'basic']), query.tenant_id ?? null);
        },
      },
      async (request, reply) => {
        const encoding = encodingOf(request);
        const body = await readShipperBody(request, deps.maxBodyBytes);
        const records = encoding === 'protobuf' ? decodeOtlpProtobuf(body) : decodeOtlpJson(body.toString('utf8'));
        const defaultIndex = requestIndex(request, defaultOtlpIndex);
        const result = await deps.ingest.run({ tenantId: shipperTenantOf(request), records, defaultIndex, timestampField: '@timestamp', actor: actorOf(request) });
        recordShipperIngest(deps, protocol, result);
        throwIfAnyFailed(result);
        const problems = result.outcomes.flatMap((o) => (o.kind === 'invalid' || o.kind === 'no_index' ? [o.error] : []));
        const partial = problems.length === 0 ? {} : { partialSuccess: { rejectedLogRecords: problems.length, errorMessage: describeProblems(problems) } };
        if (encoding === 'json')
          return reply
            .type('application/json')
            .send(partial.partialSuccess ? { partialSuccess: { rejectedLogRecords: String(problems.length), errorMessage: partial.partialSuccess.errorMessage } } : {});
        const type = exportLogsResponseType();
        return reply.type('application/x-protobuf').send(Buffer.from(type.encode(type.fromObject(partial)).finish()));
      },
    );
  });
}

function encodingOf(request: FastifyRequest): Encoding {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  throw new UnsupportedMediaTypeError(`unsupported Content-Type ${JSON.stringify(type)}: send application/x-protobuf or application/json`);
}

/** The first problems, and how many more: the partial-success error message. */
function describeProblems(problems: readonly string[]): string {
  const shown = [...new Set(problems)].slice(0, 3).join('; ');
  return problems.length > 3 ? `${problems.length} log records refused: ${shown}; …` : `${problems.length} log records refused: ${shown}`;
}

/** gRPC status codes of the `Status` body, by failure. */
const grpcCodes: Readonly<Record<ShipperFailure['kind'], number>> = {
  bad_request: 3,
  unsupported_media: 3,
  unauthenticated: 16,
  forbidden: 7,
  not_found: 5,
  too_large: 8,
  throttled: 8,
  unavailable: 14,
};

function answerFailure(failure: ShipperFailure, request: FastifyRequest, reply: FastifyReply): void {
  const code = grpcCodes[failure.kind];
  const json = (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json');
  if (json) {
    void reply.status(failure.status).type('application/json').send({ code, message: failure.message });
    return;
  }
  const type = statusType();
  void reply
    .status(failure.status)
    .type('application/x-protobuf')
    .send(Buffer.from(type.encode(type.fromObject({ code, message: failure.message })).finish()));
}

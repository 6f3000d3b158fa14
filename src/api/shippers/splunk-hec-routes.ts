import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hecStatus, parseHecEvents, parseHecRaw, type HecDefaults, type HecRecord, type HecStatus, type RecordOutcome } from '../../shippers/index.js';
import { actorOf } from '../auth.js';
import { HecChannels } from './hec-channels.js';
import { authenticateShipper, credentialOf, shipperTenantOf, MissingCredentialError, UnknownKeyError } from './shipper-auth.js';
import { readShipperBody } from './shipper-body.js';
import { recordShipperIngest, registerShipperScope, type ShipperFailure, type ShipperRouteDeps } from './shipper-scope.js';

const protocol = 'splunk_hec';
/** Splunk's own default index: where events that name none go (docs/shippers.md). */
const defaultHecIndex = 'main';

interface HecQuery {
  tenant_id?: string;
  index?: string;
  host?: string;
  source?: string;
  sourcetype?: string;
  channel?: string;
}

/**
 * Splunk's HTTP Event Collector (docs/shippers.md): `/services/collector/event` (concatenated JSON
 * events), `/services/collector/raw` (lines), `/services/collector/health` and, for a channel
 * that asks for indexer acknowledgement, `/services/collector/ack`. Auth: `Splunk <key>`. Every
 * valid event of a request is stored even when another is invalid; the answer names the first
 * invalid one (`invalid-event-number`) and lists them all.
 */
export function registerSplunkHecRoutes(app: FastifyInstance, deps: ShipperRouteDeps): void {
  const channels = new HecChannels();
  registerShipperScope(app, protocol, deps, answerFailure, (scope) => {
    const hide = { schema: { hide: true } };
    const authenticated = {
      onRequest: async (request: FastifyRequest) => {
        const query = request.query as HecQuery;
        await authenticateShipper(deps, request, credentialOf(request, ['splunk', 'bearer', 'basic']), query.tenant_id ?? null);
      },
    };

    for (const url of ['/services/collector/health', '/services/collector/health/1.0']) {
      scope.route({ method: ['GET', 'POST'], url, ...hide, handler: async (_request, reply) => send(reply, hecStatus.healthy) });
    }

    const events = async (request: FastifyRequest, reply: FastifyReply) => {
      const text = (await readShipperBody(request, deps.maxBodyBytes)).toString('utf8');
      if (text.trim() === '') return send(reply, hecStatus.noData);
      return answerRecords(deps, channels, request, reply, parseHecEvents(text, defaultsOf(request)));
    };
    for (const url of ['/services/collector', '/services/collector/event', '/services/collector/event/1.0']) {
      scope.post(url, { ...hide, ...authenticated }, events);
    }

    const raw = async (request: FastifyRequest, reply: FastifyReply) => {
      const text = (await readShipperBody(request, deps.maxBodyBytes)).toString('utf8');
      if (text.trim() === '') return send(reply, hecStatus.noData);
      return answerRecords(
        deps,
        channels,
        request,
        reply,
        parseHecRaw(text, defaultsOf(request)).map((record) => ({ record, status: null })),
      );
    };
    for (const url of ['/services/collector/raw', '/services/collector/raw/1.0']) {
      scope.post(url, { ...hide, ...authenticated }, raw);
    }

    scope.post('/services/collector/ack', { ...hide, ...authenticated }, async (request, reply) => {
      const channel = channelOf(request);
      if (channel === null) return send(reply, { code: 10, http: 400, text: 'Data channel is missing' });
      const body = (await readShipperBody(request, deps.maxBodyBytes)).toString('utf8');
      let ids: unknown;
      try {
        ids = (JSON.parse(body) as { acks?: unknown }).acks;
      } catch {
        ids = undefined;
      }
      if (!Array.isArray(ids) || !ids.every((id) => Number.isSafeInteger(id) && (id as number) >= 0)) return send(reply, hecStatus.invalidDataFormat);
      return reply.send({ acks: channels.acknowledge(shipperTenantOf(request), channel, ids as number[]) });
    });
  });
}

function tenantOf(request: FastifyRequest): string {
  return shipperTenantOf(request);
}

function defaultsOf(request: FastifyRequest): HecDefaults {
  const query = request.query as HecQuery;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const out: { -readonly [K in keyof HecDefaults]: HecDefaults[K] } = { index: text(query.index) ?? defaultHecIndex };
  const host = text(query.host);
  const source = text(query.source);
  const sourcetype = text(query.sourcetype);
  if (host !== undefined) out.host = host;
  if (source !== undefined) out.source = source;
  if (sourcetype !== undefined) out.sourcetype = sourcetype;
  return out;
}

/** The channel a request names (`X-Splunk-Request-Channel`, or `channel` in the query), or null. */
function channelOf(request: FastifyRequest): string | null {
  const header = request.headers['x-splunk-request-channel'];
  const value = typeof header === 'string' ? header : (request.query as HecQuery).channel;
  return typeof value === 'string' && value !== '' ? value : null;
}

async function answerRecords(deps: ShipperRouteDeps, channels: HecChannels, request: FastifyRequest, reply: FastifyReply, records: readonly HecRecord[]) {
  const channel = channelOf(request);
  if (channel !== null && !HecChannels.isValid(channel)) return send(reply, hecStatus.invalidChannel);
  const result = await deps.ingest.run({
    tenantId: shipperTenantOf(request),
    records: records.map((r) => r.record),
    defaultIndex: defaultHecIndex,
    timestampField: 'time',
    actor: actorOf(request),
  });
  recordShipperIngest(deps, protocol, result);
  const failed = result.outcomes.findIndex((o) => o.kind === 'failed');
  // Nothing of this request can be refused for its content, but some was not written: retry all.
  if (failed >= 0 && result.outcomes.every((o) => o.kind === 'failed' || o.kind === 'ingested')) return send(reply.header('retry-after', '5'), hecStatus.serverBusy);
  const problems = result.outcomes.flatMap((outcome, at) => (outcome.kind === 'ingested' ? [] : [{ at, outcome, status: records[at]?.status ?? statusOf(outcome) }]));
  const first = problems[0];
  if (first === undefined) {
    const ackId = channel === null ? undefined : channels.issue(shipperTenantOf(request), channel);
    return reply.send({ text: hecStatus.success.text, code: 0, ...(ackId === undefined ? {} : { ackId }) });
  }
  return reply.status(first.status.http).send({
    text: first.status.text,
    code: first.status.code,
    'invalid-event-number': first.at,
    ingested: result.ingested,
    rejected: problems.length,
    errors: problems.slice(0, 100).map(({ at, outcome }) => ({ event: at, error: 'error' in outcome ? outcome.error : '' })),
  });
}

function statusOf(outcome: RecordOutcome): HecStatus {
  switch (outcome.kind) {
    case 'no_index':
      return hecStatus.incorrectIndex;
    case 'failed':
      return hecStatus.serverBusy;
    default:
      return hecStatus.invalidDataFormat;
  }
}

function send(reply: FastifyReply, status: { readonly code: number; readonly http: number; readonly text: string }): FastifyReply {
  return reply.status(status.http).send({ text: status.text, code: status.code });
}

function answerFailure(failure: ShipperFailure, _request: FastifyRequest, reply: FastifyReply): void {
  const status = ((): { code: number; http: number; text: string } => {
    switch (failure.kind) {
      case 'unauthenticated':
        if (failure.error instanceof MissingCredentialError) return hecStatus.tokenRequired;
        if (failure.error instanceof UnknownKeyError) return hecStatus.invalidToken;
        return hecStatus.invalidAuthorization;
      case 'forbidden':
        return { code: 4, http: 403, text: `Invalid token: ${failure.message}` };
      case 'throttled':
      case 'unavailable':
        return hecStatus.serverBusy;
      case 'too_large':
        return { code: 6, http: 413, text: `Content length too large: ${failure.message}` };
      default:
        return { ...hecStatus.invalidDataFormat, text: `${hecStatus.invalidDataFormat.text}: ${failure.message}` };
    }
  })();
  void reply.status(status.http).send({ text: status.text, code: status.code });
}

import { ErrorCodes, NotFoundError, ValidationError, VigilError, messageOf } from '../core/index.js';
import type { Actor, IngestService } from '../services/index.js';
import { FairSlots } from './fair-slots.js';
import type { ShipperRecord } from './shipper-record.js';

/** What became of one record of a shipper's request. */
export type RecordOutcome =
  | { readonly kind: 'ingested' }
  /** The record itself is bad (not an event, not JSON, refused by ingest): sending it again fails again. */
  | { readonly kind: 'invalid'; readonly error: string }
  /** Its index does not exist in the tenant (or it named none). */
  | { readonly kind: 'no_index'; readonly index: string; readonly error: string }
  /** Nothing wrong with it, but it was not written (server trouble): sending it again may work. */
  | { readonly kind: 'failed'; readonly error: string; readonly cause: unknown };

export interface ShipperIngestRequest {
  readonly tenantId: string;
  readonly records: readonly ShipperRecord[];
  /** The index of records that name none. */
  readonly defaultIndex: string | null;
  /** The protocol's own time field, tried before the index's timestamp fields. */
  readonly timestampField?: string;
  readonly actor: Actor;
}

export interface ShipperIngestResult {
  /** One per record, in request order. */
  readonly outcomes: readonly RecordOutcome[];
  readonly ingested: number;
  /** Records reported invalid or refused (not counting `failed` ones). */
  readonly rejected: number;
  readonly withoutTime: number;
  /** Bytes of the event lines handed to ingest. */
  readonly bytes: number;
}

export interface ShipperLimits {
  /** Shipper requests being ingested at once, over every tenant and per tenant; more wait their turn. */
  readonly maxConcurrent: number;
  readonly maxConcurrentPerTenant: number;
}

/** Requests of one tenant waiting for a slot; past it the tenant's next request is refused (429). */
const maxQueuedPerTenant = 16;

/**
 * The one ingest path behind every shipper protocol: a request's records, grouped by index, go
 * through the ingest service as NDJSON (so every guarantee of that path holds: durable before
 * the answer, bad lines reported with the good ones kept), and each record learns its outcome.
 * Past the concurrency limits requests wait their turn, tenants served in turn (FairSlots), and
 * a tenant with too many waiting is refused, so one tenant's shippers cannot hold up another's.
 */
export class ShipperIngest {
  private readonly slots: FairSlots;

  constructor(
    private readonly ingest: IngestService,
    limits: ShipperLimits,
  ) {
    this.slots = new FairSlots('shipper ingest requests', { ...limits, maxQueuedPerTenant });
  }

  /** Ingests the records; throws only TooManyRequestsError (too many waiting), never for a record. */
  run(request: ShipperIngestRequest): Promise<ShipperIngestResult> {
    return this.slots.run(request.tenantId, () => this.ingestAll(request));
  }

  private async ingestAll(request: ShipperIngestRequest): Promise<ShipperIngestResult> {
    const outcomes = new Array<RecordOutcome>(request.records.length);
    const groups = new Map<string, number[]>();
    request.records.forEach((record, at) => {
      if (record.error !== undefined) {
        outcomes[at] = { kind: 'invalid', error: record.error };
        return;
      }
      const index = record.index ?? request.defaultIndex;
      if (index === null || index === '') {
        outcomes[at] = { kind: 'no_index', index: '', error: 'no index named: the record names none and the request gives no default' };
        return;
      }
      const members = groups.get(index);
      if (members) members.push(at);
      else groups.set(index, [at]);
    });
    let ingested = 0;
    let withoutTime = 0;
    let bytes = 0;
    for (const [index, members] of groups) {
      const text = members.map((at) => request.records[at]?.line as string).join('\n') + '\n';
      bytes += Buffer.byteLength(text);
      try {
        const { summary } = await this.ingest.ingest(
          {
            tenantId: request.tenantId,
            index,
            format: 'ndjson',
            maxReportedErrors: members.length,
            ...(request.timestampField !== undefined ? { timestampField: request.timestampField } : {}),
          },
          oneChunk(text),
          request.actor,
        );
        ingested += summary.ingested;
        withoutTime += summary.withoutTime;
        for (const at of members) outcomes[at] = { kind: 'ingested' };
        // Line n of the group's text is its n-th record.
        for (const problem of summary.errors) {
          const at = members[problem.line - 1];
          if (at !== undefined) outcomes[at] = { kind: 'invalid', error: problem.error };
        }
      } catch (error) {
        const outcome = groupFailure(index, error);
        for (const at of members) outcomes[at] = outcome;
      }
    }
    const rejected = outcomes.filter((o) => o.kind === 'invalid' || o.kind === 'no_index').length;
    return { outcomes, ingested, rejected, withoutTime, bytes };
  }
}

/** Why no record of an index's group was written. */
function groupFailure(index: string, error: unknown): RecordOutcome {
  if (error instanceof NotFoundError) return { kind: 'no_index', index, error: `no such index [${index}]: create it first (vigil index create ${index})` };
  if (error instanceof ValidationError) return { kind: 'no_index', index, error: messageOf(error) };
  if (error instanceof VigilError && error.code === ErrorCodes.payloadTooLarge) return { kind: 'invalid', error: messageOf(error) };
  return { kind: 'failed', error: 'the events could not be written now; send them again', cause: error };
}

async function* oneChunk(text: string): AsyncGenerator<string> {
  yield text;
}

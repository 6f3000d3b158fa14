import { randomBytes } from 'node:crypto';
import type { BulkItem } from './elasticsearch-bulk.js';
import { unsupportedActionPrefix } from './elasticsearch-bulk.js';
import type { RecordOutcome } from './shipper-ingest.js';

/** The version Vigil announces on `GET /`: clients pick their wire behaviour by its major. */
export const announcedElasticsearchVersion = '8.19.0';

/** An Elasticsearch error object: `{type, reason}` plus fields such as `index`. */
export interface ElasticsearchError {
  readonly type: string;
  readonly reason: string;
  readonly [key: string]: string;
}

/** The body of a failed request, as Elasticsearch writes it. */
export function elasticsearchErrorBody(status: number, error: ElasticsearchError): Record<string, unknown> {
  return { error: { root_cause: [error], ...error }, status };
}

/** `GET /`: the version document Beats, Logstash, Vector and the clients read before they send. */
export function elasticsearchVersionDocument(clusterUuid: string): Record<string, unknown> {
  return {
    name: 'vigil',
    cluster_name: 'vigil',
    cluster_uuid: clusterUuid,
    version: {
      number: announcedElasticsearchVersion,
      build_flavor: 'default',
      build_type: 'tar',
      build_hash: 'vigil',
      build_date: '2025-07-01T00:00:00.000000000Z',
      build_snapshot: false,
      lucene_version: '9.12.1',
      minimum_wire_compatibility_version: '7.17.0',
      minimum_index_compatibility_version: '7.0.0',
    },
    tagline: 'You Know, for Search',
  };
}

/** `GET /_license`: an active basic license, which is what Beats and Logstash check for. */
export function elasticsearchLicense(): Record<string, unknown> {
  return {
    license: {
      status: 'active',
      uid: '00000000-0000-0000-0000-000000000000',
      type: 'basic',
      issue_date: '2024-01-01T00:00:00.000Z',
      issue_date_in_millis: 1704067200000,
      max_nodes: 1000,
      max_resource_units: null,
      issued_to: 'vigil',
      issuer: 'vigil',
      start_date_in_millis: -1,
    },
  };
}

/** The `_bulk` answer: one result per item in request order, `errors: true` when any failed. */
export function bulkResponse(items: readonly BulkItem[], outcomes: readonly RecordOutcome[], tookMs: number): Record<string, unknown> {
  let errors = false;
  const ids = new DocumentIds(items.reduce((n, item) => (item.id === null ? n + 1 : n), 0));
  const results = items.map((item, at) => {
    const outcome = outcomes[at] ?? { kind: 'failed', error: 'not processed', cause: null };
    const result = itemResult(item, item.id ?? ids.next(), outcome);
    if (result['status'] !== 201) errors = true;
    return { [item.action]: result };
  });
  return { took: Math.max(0, Math.round(tookMs)), errors, items: results };
}

function itemResult(item: BulkItem, id: string, outcome: RecordOutcome): Record<string, unknown> {
  const base = { _index: item.index ?? '', _id: id };
  switch (outcome.kind) {
    case 'ingested':
      // Written out rather than spread from base: a spread into this literal cost 7 µs an item.
      return { _index: base._index, _id: base._id, _version: 1, result: 'created', _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: 0, _primary_term: 1, status: 201 };
    case 'invalid':
      if (outcome.error.startsWith(unsupportedActionPrefix)) {
        return {
          ...base,
          status: 400,
          error: { type: 'illegal_argument_exception', reason: `Vigil stores events as they arrive and never changes them: ${item.action} is not supported` },
        };
      }
      return { ...base, status: 400, error: { type: 'document_parsing_exception', reason: `failed to parse: ${outcome.error}` } };
    case 'no_index':
      return { ...base, status: 404, error: { type: 'index_not_found_exception', reason: outcome.error, index: outcome.index } };
    case 'failed':
      // 429 is the status every Elasticsearch client retries an item on.
      return { ...base, status: 429, error: { type: 'es_rejected_execution_exception', reason: outcome.error } };
  }
}

/**
 * Document ids as Elasticsearch makes them, 20 URL-safe base64 characters each, for the items
 * that gave none: random bytes drawn once for the whole request, as one call per item cost more
 * than the rest of the answer (about 18 of the 26 ms a 1,000-item answer took, in a profile).
 */
class DocumentIds {
  private readonly bytes: Buffer;
  private at = 0;

  constructor(count: number) {
    this.bytes = randomBytes(idBytes * count);
  }

  next(): string {
    const id = this.bytes.subarray(this.at, this.at + idBytes).toString('base64url');
    this.at += idBytes;
    return id;
  }
}

const idBytes = 15;

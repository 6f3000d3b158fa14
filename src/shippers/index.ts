/**
 * shippers: the wire formats log shippers already speak — Elasticsearch `_bulk`, Splunk HEC,
 * OTLP/HTTP logs, Loki push — decoded into records routed by index (each event one NDJSON line),
 * the answers each protocol expects, and `ShipperIngest`, which writes a request's records
 * through the one ingest service and tells each record's outcome. HTTP lives in api/shippers.
 * Imports core, ingest (its JSON reader) and admin (the ingest service).
 */
export { eventRecord, invalidRecord, type ShipperRecord } from './shipper-record.js';
export { ShipperIngest, type RecordOutcome, type ShipperIngestRequest, type ShipperIngestResult, type ShipperLimits } from './shipper-ingest.js';
export { parseBulkBody, type BulkAction, type BulkItem } from './elasticsearch-bulk.js';
export {
  announcedElasticsearchVersion,
  bulkResponse,
  elasticsearchErrorBody,
  elasticsearchLicense,
  elasticsearchVersionDocument,
  type ElasticsearchError,
} from './elasticsearch-answers.js';
export { hecStatus, parseHecEvents, parseHecRaw, type HecDefaults, type HecRecord, type HecStatus } from './splunk-hec.js';
export { decodeOtlpJson, decodeOtlpProtobuf } from './otlp-logs.js';
export { otlpIndexAttribute } from './otlp-log-event.js';
export { exportLogsResponseType, statusType } from './otlp-logs-proto.js';
export { decodeLokiJson, decodeLokiProtobuf, lokiIndexLabel, parseLabelSet } from './loki-push.js';

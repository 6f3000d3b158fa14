/**
 * shippers: the wire formats log shippers speak (Elasticsearch `_bulk`, Splunk HEC, OTLP logs,
 * Loki push) decoded into NDJSON records per index and written through the one ingest use case,
 * with the answers each protocol expects. Imports core, ingest and services; HTTP is api/shippers.
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

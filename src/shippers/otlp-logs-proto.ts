import protobuf from 'protobufjs';

/**
 * The messages of OTLP/HTTP logs (`opentelemetry.proto.collector.logs.v1`), written from the
 * OTLP specification's field numbers and types: only what a logs export carries. The answers
 * (`ExportLogsServiceResponse`, `Status`) are encoded with these; requests are read straight
 * from the wire by otlp-protobuf-logs.ts (same field numbers), and the request type encodes
 * requests for tests and the bench.
 */
const otlpLogsSchema = `
syntax = "proto3";
package vigil.otlp;

message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
message ExportLogsServiceResponse { ExportLogsPartialSuccess partial_success = 1; }
message ExportLogsPartialSuccess { int64 rejected_log_records = 1; string error_message = 2; }

message ResourceLogs { Resource resource = 1; repeated ScopeLogs scope_logs = 2; string schema_url = 3; }
message ScopeLogs { InstrumentationScope scope = 1; repeated LogRecord log_records = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }

message LogRecord {
  fixed64 time_unix_nano = 1;
  fixed64 observed_time_unix_nano = 11;
  int32 severity_number = 2;
  string severity_text = 3;
  AnyValue body = 5;
  repeated KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7;
  fixed32 flags = 8;
  bytes trace_id = 9;
  bytes span_id = 10;
  string event_name = 12;
}

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }

message Status { int32 code = 1; string message = 2; }
`;

let root: protobuf.Root | null = null;

function otlpRoot(): protobuf.Root {
  root ??= protobuf.parse(otlpLogsSchema, { keepCase: false }).root;
  return root;
}

/** The request message type (decodes a protobuf body). */
export function exportLogsRequestType(): protobuf.Type {
  return otlpRoot().lookupType('vigil.otlp.ExportLogsServiceRequest');
}

/** `google.rpc.Status`'s first two fields: the body of a refused protobuf request. */
export function statusType(): protobuf.Type {
  return otlpRoot().lookupType('vigil.otlp.Status');
}

/** The response message type (encodes the answer to a protobuf request). */
export function exportLogsResponseType(): protobuf.Type {
  return otlpRoot().lookupType('vigil.otlp.ExportLogsServiceResponse');
}

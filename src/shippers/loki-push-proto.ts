import protobuf from 'protobufjs';

/**
 * Loki's push request (`logproto.PushRequest`) as the push API sends it, written from its field
 * numbers and types: streams of entries with their labels (Prometheus label-set text), each entry
 * a timestamp, a line and structured metadata.
 */
const lokiPushSchema = `
syntax = "proto3";
package vigil.loki;

message PushRequest { repeated Stream streams = 1; }
message Stream { string labels = 1; repeated Entry entries = 2; uint64 hash = 3; }
message Entry { Timestamp timestamp = 1; string line = 2; repeated LabelPair structured_metadata = 3; }
message LabelPair { string name = 1; string value = 2; }
message Timestamp { int64 seconds = 1; int32 nanos = 2; }
`;

let pushRequest: protobuf.Type | null = null;

/** The PushRequest message type. */
export function pushRequestType(): protobuf.Type {
  pushRequest ??= protobuf.parse(lokiPushSchema).root.lookupType('vigil.loki.PushRequest');
  return pushRequest;
}

/**
 * The seeds the replay generator scales up, and the dataset profiles built from them. Field
 * lists name top-level keys exactly as the seed files spell them (see the datasets README).
 */

export interface ReplaySource {
  readonly name: string;
  /** Path under the shared datasets folder. */
  readonly file: string;
  /** Tried in order: the first present, readable one is the event time that drives the replay. */
  readonly timeFields: readonly string[];
  /** Other timestamps of the event, moved by the same amount so the event stays self-consistent. */
  readonly shiftFields: readonly string[];
  /** Host names: a label suffix per epoch. */
  readonly hostFields: readonly string[];
  /** IPv4 addresses: a new last octet per epoch. */
  readonly ipFields: readonly string[];
}

export interface ReplayProfile {
  readonly name: string;
  /** Shares of the output's events; each source replays whole epochs to reach its share. */
  readonly sources: readonly { readonly source: ReplaySource; readonly share: number }[];
}

/** Ingest's default timestamp fields, in its order: what it will read on events without ours. */
const ingestTimestampFields = ['@timestamp', 'timestamp', 'eventTime', 'time', 'ts', 'TimeGenerated', 'published', 'date'];

const windows: ReplaySource = {
  name: 'windows',
  file: 'windows/otrf-windows-atomic-host.ndjson.gz',
  timeFields: ['@timestamp', 'TimeCreated'],
  shiftFields: ['TimeCreated', 'UtcTime', 'EventTime', 'EventReceivedTime', 'CreationUtcTime'],
  hostFields: ['Hostname', 'host', 'SourceHostname', 'DestinationHostname'],
  ipFields: ['IpAddress', 'SourceAddress', 'DestAddress', 'SourceIp', 'DestinationIp'],
};

const zeek: ReplaySource = {
  name: 'zeek',
  file: 'network/zeek-wrccdc-2018.ndjson.gz',
  timeFields: ['ts'],
  shiftFields: ['_write_ts'],
  hostFields: [],
  ipFields: ['id.orig_h', 'id.resp_h'],
};

const web: ReplaySource = {
  name: 'web',
  file: 'web/elastic-examples-apache-access-10k.ndjson.gz',
  timeFields: ['timestamp'],
  shiftFields: [],
  hostFields: [],
  ipFields: ['clientip'],
};

const auth: ReplaySource = {
  name: 'linux-auth',
  file: 'linux/elastic-examples-auth-log.ndjson.gz',
  timeFields: ['timestamp'],
  shiftFields: [],
  hostFields: ['host'],
  ipFields: [],
};

const panther: ReplaySource = {
  name: 'panther',
  file: 'panther/panther-rule-test-events.ndjson.gz',
  timeFields: ingestTimestampFields,
  shiftFields: ['p_event_time', 'created_at', ...ingestTimestampFields],
  hostFields: [],
  ipFields: ['sourceIPAddress', 'ip_address', 'client_ip', 'srcAddr', 'dstAddr'],
};

/** `windows`: the Windows seed alone. `mixed`: a SIEM tenant's blend (datasets README §5.7). */
export const replayProfiles: Readonly<Record<string, ReplayProfile>> = {
  windows: { name: 'windows', sources: [{ source: windows, share: 1 }] },
  mixed: {
    name: 'mixed',
    sources: [
      { source: windows, share: 0.5 },
      { source: zeek, share: 0.25 },
      { source: auth, share: 0.1 },
      { source: web, share: 0.1 },
      { source: panther, share: 0.05 },
    ],
  },
};

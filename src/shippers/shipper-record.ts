/**
 * One record of a shipper's request, decoded: the index it is routed to (null: the request's
 * default), and either the event as one NDJSON line for the ingest path or why it is invalid.
 * Records keep the request's order, so each protocol can answer per record.
 */
export type ShipperRecord =
  { readonly index: string | null; readonly line: string; readonly error?: undefined } | { readonly index: string | null; readonly line?: undefined; readonly error: string };

/** A record holding an event line. */
export function eventRecord(index: string | null, line: string): ShipperRecord {
  return { index, line };
}

/** A record the protocol could not read: reported, never ingested. */
export function invalidRecord(index: string | null, error: string): ShipperRecord {
  return { index, error };
}

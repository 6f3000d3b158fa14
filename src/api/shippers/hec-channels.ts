/**
 * Indexer acknowledgement for HEC channels: a request that names a channel gets an `ackId`, and
 * `/services/collector/ack` answers which ids are indexed. Vigil answers only after events are
 * durable, so every id it handed out is indexed already; ids are kept per tenant and channel to
 * hand out increasing ones, for at most `maxChannels` channels (the oldest are forgotten, and a
 * forgotten or restarted channel's ids, all handed out after durable writes, still read true).
 */
export class HecChannels {
  private readonly next = new Map<string, number>();

  constructor(private readonly maxChannels = 10_000) {}

  /** Channels are GUIDs in Splunk; any short printable name is taken. */
  static isValid(channel: string): boolean {
    return /^[\x21-\x7e]{1,128}$/.test(channel);
  }

  /** The next ack id of the channel. */
  issue(tenant: string, channel: string): number {
    const key = `${tenant}\u0000${channel}`;
    const id = this.next.get(key) ?? 0;
    this.next.delete(key); // re-inserted last: the map's order is least recently used first
    this.next.set(key, id + 1);
    if (this.next.size > this.maxChannels) this.next.delete(this.next.keys().next().value as string);
    return id;
  }

  /** Which of the ids are indexed: those handed out (or any, for a channel no longer known). */
  acknowledge(tenant: string, channel: string, ids: readonly number[]): Record<string, boolean> {
    const issued = this.next.get(`${tenant}\u0000${channel}`);
    const out: Record<string, boolean> = {};
    for (const id of ids) out[String(id)] = issued === undefined || id < issued;
    return out;
  }
}

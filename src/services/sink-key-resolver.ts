import { allPages, type Store, type SyncSourceRecord } from '../store/index.js';

/** Why a key named no sink. */
export interface UnresolvedSinkKey {
  readonly key: string;
  /** Its position in `event_sink_keys`. */
  readonly index: number;
  readonly reason: string;
}

/**
 * Resolves a rule file's `event_sink_keys` for a single-rule upsert. A tenant's sink keys live in
 * the maps of its sync sources (detections.md 3.4; `vigil sync-sources create --sink-key
 * KEY=SINK_ID`): a key resolves to the sinks its sources map it to, and sources that map it
 * differently make it ambiguous. A key that no source maps may be the id of one of the tenant's
 * sinks, so a tenant without sync sources can still upsert rules with sinks. The sinks come out
 * in key order, each once.
 */
export async function resolveSinkKeys(store: Store, tenantId: string, keys: readonly string[]): Promise<{ sinkIds: string[]; unresolved: UnresolvedSinkKey[] }> {
  if (keys.length === 0) return { sinkIds: [], unresolved: [] };
  const sources = await allSources(store, tenantId);
  const sinks = await store.sinks.existing(tenantId, keys);
  const sinkIds: string[] = [];
  const unresolved: UnresolvedSinkKey[] = [];
  keys.forEach((key, index) => {
    const mapping = sources.filter((s) => Object.hasOwn(s.sinkKeys, key));
    if (new Set(mapping.map((s) => JSON.stringify(s.sinkKeys[key]))).size > 1) {
      const named = mapping.map((s) => `${s.pushKey}@${s.branch}`);
      unresolved.push({ key, index, reason: `is mapped to different sinks by the tenant's sync sources ${named.join(', ')}` });
      return;
    }
    const mapped = mapping[0]?.sinkKeys[key] ?? (sinks.has(key) ? [key] : null);
    if (mapped === null) {
      unresolved.push({
        key,
        index,
        reason: "is neither mapped by a sync source of the tenant (vigil sync-sources ... --sink-key KEY=SINK_ID) nor the id of one of the tenant's event sinks",
      });
      return;
    }
    for (const id of mapped) if (!sinkIds.includes(id)) sinkIds.push(id);
  });
  return { sinkIds, unresolved };
}

function allSources(store: Store, tenantId: string): Promise<SyncSourceRecord[]> {
  return allPages((pageToken) => store.syncSources.list(tenantId, { pageSize: 1000, ...(pageToken ? { pageToken } : {}) }));
}

import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError, newId } from '../../core/index.js';
import type { SyncSourceRecord } from '../records.js';
import type { Store } from '../store.js';
import type { SyncCommit } from '../sync-source-store.js';
import { aRule, aSink, anAuditEntry } from './store-fixtures.js';

/** A source with no commit yet. */
export function aSyncSource(tenantId: string, overrides: Partial<SyncSourceRecord> = {}): SyncSourceRecord {
  return {
    id: newId(),
    tenantId,
    pushKey: 'detections-repo',
    branch: 'main',
    sinkKeys: {},
    revision: 0,
    lastCommitSha: null,
    lastCommitMessage: null,
    lastSyncedAt: null,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** Sync sources: naming, sink-key maps within the tenant, the all-at-once sync write, deletion with the rules. */
export function describeSyncSourceContract(store: () => Store): void {
  describe('sync sources', () => {
    const sinkA = aSink('acme');
    const sinkB = aSink('acme');
    const foreignSink = aSink('globex');
    beforeEach(async () => {
      await store().tenants.ensure('acme', 0);
      await store().tenants.ensure('globex', 0);
      for (const sink of [sinkA, sinkB, foreignSink]) await store().sinks.insert(sink);
    });

    const commitOf = (source: SyncSourceRecord, parts: Partial<SyncCommit>): SyncCommit => ({
      tenantId: source.tenantId,
      sourceId: source.id,
      expectedRevision: source.revision,
      creates: [],
      updates: [],
      deletes: [],
      commitSha: 'a'.repeat(40),
      commitMessage: 'add rules',
      atMs: 1_700_000_100_000,
      audit: anAuditEntry({ tenantId: source.tenantId, action: 'sync_source.sync', target: source.id }),
      ...parts,
    });

    it('keeps a source and its sink-key map, keys naming several sinks in order', async () => {
      const source = aSyncSource('acme', { sinkKeys: { high_severity_alerts: [sinkB.id, sinkA.id], low: [sinkA.id] } });
      await store().syncSources.insert(source);
      expect(await store().syncSources.get('acme', source.id)).toEqual(source);
      expect(await store().syncSources.getAnyTenant(source.id)).toEqual(source);
      expect(await store().syncSources.get('globex', source.id)).toBeNull();
    });

    it('names a source by tenant, push key and branch', async () => {
      const main = aSyncSource('acme');
      await store().syncSources.insert(main);
      await store().syncSources.insert(aSyncSource('acme', { branch: 'staging' }));
      const theirs = aSyncSource('globex');
      await store().syncSources.insert(theirs);
      await expect(store().syncSources.insert(aSyncSource('acme'))).rejects.toThrow(ConflictError);
      expect((await store().syncSources.findByPushKey('detections-repo', 'main')).map((s) => s.id).sort()).toEqual([main.id, theirs.id].sort());
      expect(await store().syncSources.findByPushKey('detections-repo', 'dev')).toEqual([]);
    });

    it('maps keys only to sinks of its own tenant, and needs a known tenant', async () => {
      const foreign = store().syncSources.insert(aSyncSource('acme', { sinkKeys: { k: [sinkA.id, foreignSink.id] } }));
      await expect(foreign).rejects.toThrow(ValidationError);
      await expect(foreign).rejects.toMatchObject({ field: 'event_sink_keys.k' });
      await expect(store().syncSources.insert(aSyncSource('nobody'))).rejects.toThrow(NotFoundError);
    });

    it('lists in creation order, a page at a time', async () => {
      const sources = [3, 1, 2].map((n) => aSyncSource('acme', { branch: `b${n}`, createdAt: n }));
      for (const source of sources) await store().syncSources.insert(source);
      const first = await store().syncSources.list('acme', { pageSize: 2 });
      expect(first.items.map((s) => s.branch)).toEqual(['b1', 'b2']);
      const second = await store().syncSources.list('acme', { pageSize: 2, pageToken: first.nextPageToken ?? '' });
      expect(second).toEqual({ items: [sources[0]], nextPageToken: null });
      expect((await store().syncSources.list('globex', { pageSize: 2 })).items).toEqual([]);
    });

    it('updateSinkKeys replaces the map within the tenant', async () => {
      const source = aSyncSource('acme', { sinkKeys: { a: [sinkA.id] } });
      await store().syncSources.insert(source);
      const updated = await store().syncSources.updateSinkKeys('acme', source.id, { b: [sinkB.id, sinkA.id] }, 5000);
      expect(updated).toEqual({ ...source, sinkKeys: { b: [sinkB.id, sinkA.id] }, updatedAt: 5000 });
      expect(await store().syncSources.get('acme', source.id)).toEqual(updated);
      expect(await store().syncSources.updateSinkKeys('globex', source.id, {}, 6000)).toBeNull();
      await expect(store().syncSources.updateSinkKeys('acme', source.id, { b: [foreignSink.id] }, 6000)).rejects.toThrow(ValidationError);
    });

    it("applySync creates, changes and deletes the source's rules, records the commit and the audit entry, at once", async () => {
      const source = aSyncSource('acme');
      await store().syncSources.insert(source);
      const kept = aRule('acme', { detectionRuleSyncId: source.id, syncKey: 'k/kept', eventSinkIds: [sinkA.id] });
      const gone = aRule('acme', { detectionRuleSyncId: source.id, syncKey: 'k/gone' });
      const unrelated = aRule('acme');
      for (const rule of [kept, gone, unrelated]) await store().rules.insert(rule);
      const created = aRule('acme', { detectionRuleSyncId: source.id, syncKey: 'k/new', eventSinkIds: [sinkB.id, sinkA.id], createdAt: 1_700_000_100_000 });
      const commit = commitOf(source, { creates: [created], updates: [{ id: kept.id, changes: { name: 'renamed', eventSinkIds: [sinkB.id] } }], deletes: [gone.id] });
      expect(await store().syncSources.applySync(commit)).toBe(true);
      expect(await store().syncSources.rules('acme', source.id)).toEqual([{ ...kept, name: 'renamed', eventSinkIds: [sinkB.id], updatedAt: commit.atMs }, created]);
      expect(await store().rules.get('acme', unrelated.id)).toEqual(unrelated);
      expect(await store().syncSources.get('acme', source.id)).toEqual({
        ...source,
        revision: 1,
        lastCommitSha: commit.commitSha,
        lastCommitMessage: 'add rules',
        lastSyncedAt: commit.atMs,
        updatedAt: commit.atMs,
      });
      expect(await store().audit.listUnshipped(10)).toEqual([commit.audit]);
    });

    it("applySync over a stale revision, or of another tenant's source, writes nothing", async () => {
      const source = aSyncSource('acme');
      await store().syncSources.insert(source);
      expect(await store().syncSources.applySync(commitOf(source, {}))).toBe(true);
      const stale = commitOf(source, { creates: [aRule('acme', { detectionRuleSyncId: source.id, syncKey: 'k/late' })], commitSha: 'b'.repeat(40) });
      expect(await store().syncSources.applySync(stale)).toBe(false);
      expect(await store().syncSources.applySync({ ...stale, tenantId: 'globex', expectedRevision: 1 })).toBe(false);
      expect(await store().syncSources.rules('acme', source.id)).toEqual([]);
      expect((await store().syncSources.get('acme', source.id))?.lastCommitSha).toBe('a'.repeat(40));
      expect(await store().audit.listUnshipped(10)).toHaveLength(1);
    });

    it('applySync writes nothing when a rule names a sink the tenant no longer has', async () => {
      const source = aSyncSource('acme');
      await store().syncSources.insert(source);
      const commit = commitOf(source, { creates: [aRule('acme', { syncKey: 'k/a' }), aRule('acme', { syncKey: 'k/b', eventSinkIds: [foreignSink.id] })] });
      await expect(store().syncSources.applySync(commit)).rejects.toThrow(ValidationError);
      expect(await store().syncSources.rules('acme', source.id)).toEqual([]);
      expect((await store().syncSources.get('acme', source.id))?.revision).toBe(0);
    });

    it('delete removes the source, its map and its rules, nothing else', async () => {
      const source = aSyncSource('acme', { sinkKeys: { a: [sinkA.id] } });
      await store().syncSources.insert(source);
      const synced = aRule('acme', { detectionRuleSyncId: source.id, syncKey: 'k/a', eventSinkIds: [sinkA.id] });
      const other = aRule('acme', { eventSinkIds: [sinkA.id] });
      await store().rules.insert(synced);
      await store().rules.insert(other);
      expect(await store().syncSources.delete('globex', source.id)).toBeNull();
      expect(await store().syncSources.delete('acme', source.id)).toEqual({ deletedRuleIds: [synced.id] });
      expect(await store().syncSources.get('acme', source.id)).toBeNull();
      expect(await store().rules.get('acme', synced.id)).toBeNull();
      expect(await store().rules.get('acme', other.id)).toEqual(other);
      expect(await store().syncSources.delete('acme', source.id)).toBeNull();
      // The map went with it: the sink can be deleted without a trace of the source.
      expect(await store().sinks.delete('acme', sinkA.id, 1)).toEqual({ detachedRuleIds: [other.id] });
    });

    it('deleting a sink removes it from every sink-key map', async () => {
      const source = aSyncSource('acme', { sinkKeys: { a: [sinkA.id, sinkB.id], b: [sinkA.id] } });
      await store().syncSources.insert(source);
      await store().sinks.delete('acme', sinkA.id, 1);
      expect((await store().syncSources.get('acme', source.id))?.sinkKeys).toEqual({ a: [sinkB.id] });
    });
  });
}

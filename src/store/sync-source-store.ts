import type { AuditEntry, DetectionRuleRecord, Page, SyncSourceRecord } from './records.js';
import type { DetectionRuleChanges, PageOptions } from './repository-options.js';

/** A rule of the source to change, and how. */
export interface SyncedRuleUpdate {
  readonly id: string;
  readonly changes: DetectionRuleChanges;
}

/**
 * Everything one repository sync changes, written in one transaction: the rules created, changed
 * and deleted so that the source matches its archive, the commit, and the sync's audit entry.
 */
export interface SyncCommit {
  readonly tenantId: string;
  readonly sourceId: string;
  /** The revision the plan was made against: the commit happens only if it is still the source's. */
  readonly expectedRevision: number;
  /** New rules; each carries the source's id as `detectionRuleSyncId`. */
  readonly creates: readonly DetectionRuleRecord[];
  readonly updates: readonly SyncedRuleUpdate[];
  /** Ids of the source's rules whose files are gone. */
  readonly deletes: readonly string[];
  readonly commitSha: string;
  readonly commitMessage: string | null;
  readonly atMs: number;
  readonly audit: AuditEntry;
}

/**
 * Sync sources (detections.md 3.5) with their sink-key maps (3.4), and the one write of a sync.
 * A source owns its rules: they are changed only by `applySync` and deleted with the source.
 */
export interface SyncSourceRepository {
  /**
   * NotFoundError for an unknown tenant; ConflictError when the tenant has a source with the same
   * push key and branch; ValidationError on `event_sink_keys.<key>` when a sink is not one of the tenant's.
   */
  insert(source: SyncSourceRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<SyncSourceRecord | null>;
  /** The source with this id whatever its tenant; the caller checks the requester may see that tenant. */
  getAnyTenant(id: string): Promise<SyncSourceRecord | null>;
  /** Every tenant's source with this push key and branch (an upload need not name its tenant). */
  findByPushKey(pushKey: string, branch: string): Promise<SyncSourceRecord[]>;
  /** Sources in creation order (then id), keyset-paginated like rules and sinks. */
  list(tenantId: string, options: PageOptions): Promise<Page<SyncSourceRecord>>;
  /** Replaces the sink-key map and stamps updatedAt. Null when no such source; errors as for insert. */
  updateSinkKeys(tenantId: string, id: string, sinkKeys: SyncSourceRecord['sinkKeys'], atMs: number): Promise<SyncSourceRecord | null>;
  /** Deletes the source, its map and every rule synced from it, in one transaction; the rules' ids, or null when no such source. */
  delete(tenantId: string, id: string): Promise<{ readonly deletedRuleIds: string[] } | null>;
  /** The rules synced from the source, with their sinks, oldest first. */
  rules(tenantId: string, sourceId: string): Promise<DetectionRuleRecord[]>;
  /**
   * Applies a sync and bumps the source's revision. False, with nothing written, when the source
   * is gone or its revision is no longer `expectedRevision` (another sync applied meanwhile).
   * ValidationError when a rule names a sink that no longer exists; ConflictError on a sync key
   * another rule of the tenant holds.
   */
  applySync(commit: SyncCommit): Promise<boolean>;
}

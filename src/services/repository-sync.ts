import { ConflictError, KeyedLock, NotFoundError, ValidationError, messageOf, newId, type Clock } from '../core/index.js';
import { effectiveState } from '../detections/index.js';
import type { DetectionRuleRecord, Store, SyncSourceRecord } from '../store/index.js';
import { describeActor, type Actor } from './actor.js';
import { defaultArchiveLimits, readRepositoryArchive, type ArchiveLimits } from '../detections/index.js';
import type { RuleFileChecker, RuleFileReport, RuleFileStatus } from './rule-file-service.js';
import { planSync, syncKeyOf, type DesiredRule, type SyncPlan } from './sync-plan.js';
import type { SyncSourceService } from './sync-source-service.js';
import { syncedRuleFieldsOf } from './synced-rule-fields.js';

/** An upload of `POST /v1/upload_git_repo_zipball`. */
export interface RepositoryUpload {
  readonly pushKey: string;
  readonly branch: string;
  /** Stored verbatim (a `+dirty` suffix included). */
  readonly commitSha: string;
  readonly commitMessage: string | null;
  /** Needed only when several tenants the caller holds have a source with this push key and branch. */
  readonly tenantId?: string;
  readonly archive: Uint8Array;
}

export type SyncAction = 'created' | 'updated' | 'unchanged';

/** One rule file's outcome: its checks, and when the sync applied, what became of its rule. */
export interface SyncFileResult extends Omit<RuleFileReport, 'definition'> {
  readonly action?: SyncAction;
  readonly ruleId?: string;
}

export interface RepositorySyncResult {
  /** The source after the sync (its commit recorded when applied). */
  readonly source: SyncSourceRecord;
  /** False when a file failed: then nothing changed. */
  readonly applied: boolean;
  readonly files: readonly SyncFileResult[];
  /** Rules deleted because their file is gone. */
  readonly deleted: readonly { readonly ruleId: string; readonly name: string; readonly path: string | null }[];
  /** YAML files not taken as rule files, and why. */
  readonly ignored: readonly { readonly path: string; readonly reason: string }[];
}

// A sync of another process can move the revision between planning and writing; re-planning is cheap.
const maxApplyAttempts = 5;

/**
 * Syncs a source's rules with an uploaded archive of its repository (detections.md 3.5): every
 * rule file is checked and its tests run first, and if any fails nothing changes; otherwise the
 * source's rules are created, updated and deleted to match the archive exactly, in one store
 * transaction with the commit and one audit entry. Syncs of one source run one at a time here,
 * and the store's revision check keeps syncs of other processes from interleaving.
 */
export class RepositorySync {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly store: Store,
    private readonly sources: SyncSourceService,
    private readonly checker: RuleFileChecker,
    private readonly clock: Clock,
    /** Bounds on archives; the API takes its upload limit from here. */
    readonly limits: ArchiveLimits = defaultArchiveLimits,
  ) {}

  async upload(upload: RepositoryUpload, canSeeTenant: (tenantId: string) => boolean, actor: Actor, authorUserId: string | null): Promise<RepositorySyncResult> {
    const commitSha = checkCommitSha(upload.commitSha);
    const commitMessage = checkCommitMessage(upload.commitMessage);
    const found = await this.sources.resolve(upload.pushKey, upload.branch, upload.tenantId, canSeeTenant);
    const archive = readRepositoryArchive(upload.archive, this.limits);
    return this.lock.run(found.id, async () => {
      // Read again under the lock: a sync that held it may have moved the source on.
      const source = await this.store.syncSources.get(found.tenantId, found.id);
      if (source === null) throw deletedDuringSync(found.id);
      const reports = await this.checker.checkFiles(source.tenantId, archive.ruleFiles, { runTests: true });
      const { desired, files } = resolveFiles(reports, source);
      if (files.some((file) => !isPassing(file.status))) return { source, applied: false, files, deleted: [], ignored: archive.ignored };
      // The first attempt writes against the source read above; a lost revision race re-reads it.
      let current: SyncSourceRecord | null = source;
      for (let attempt = 1; ; attempt++) {
        if (current === null) throw deletedDuringSync(source.id);
        const plan = planSync(current.id, desired, await this.store.syncSources.rules(current.tenantId, current.id));
        const applied = await this.apply(current, plan, { commitSha, commitMessage }, actor, authorUserId);
        if (applied !== null) return { ...applied, files: withActions(files, plan, applied.createdIds), ignored: archive.ignored };
        if (attempt === maxApplyAttempts) throw new ConflictError(`sync of source ${current.id} kept meeting concurrent syncs`);
        current = await this.store.syncSources.get(source.tenantId, source.id);
      }
    });
  }

  /** Writes the plan; null when another sync changed the source since it was read. */
  private async apply(
    source: SyncSourceRecord,
    plan: SyncPlan,
    commit: { commitSha: string; commitMessage: string | null },
    actor: Actor,
    authorUserId: string | null,
  ): Promise<{ source: SyncSourceRecord; applied: true; deleted: RepositorySyncResult['deleted']; createdIds: Map<string, string> } | null> {
    const now = this.clock.nowMs();
    const creates = plan.creates.map((file) => newRule(source, file, authorUserId, now));
    const updates = plan.updates.map(({ rule, changes }) => ({
      id: rule.id,
      // A new query text is a new prepared query, as through the API.
      changes: changes.queryText !== undefined ? { ...changes, preparedQueryId: newId() } : changes,
    }));
    const deleted = plan.deletes.map(({ rule, path }) => ({ ruleId: rule.id, name: rule.name, path }));
    const ok = await this.store.syncSources.applySync({
      tenantId: source.tenantId,
      sourceId: source.id,
      expectedRevision: source.revision,
      creates,
      updates,
      deletes: deleted.map((d) => d.ruleId),
      commitSha: commit.commitSha,
      commitMessage: commit.commitMessage,
      atMs: now,
      audit: {
        id: newId(),
        tenantId: source.tenantId,
        at: now,
        actor: describeActor(actor),
        action: 'sync_source.sync',
        target: source.id,
        details: {
          push_key: source.pushKey,
          branch: source.branch,
          commit_sha: commit.commitSha,
          created: creates.map((rule, i) => ({ id: rule.id, path: plan.creates[i]?.path })),
          updated: plan.updates.map(({ rule, path, changes }) => ({ id: rule.id, path, changes: Object.keys(changes) })),
          deleted: deleted.map((d) => ({ id: d.ruleId, path: d.path })),
          unchanged: plan.unchanged.length,
        },
      },
    });
    if (!ok) return null;
    // E3: a rule moved out of Paused evaluates the most recent window, not the time it was paused.
    for (const { rule, changes } of plan.updates) {
      if (effectiveState(rule) === 'Paused' && effectiveState({ ...rule, ...changes }) !== 'Paused') await this.store.detectionState.resetCursor(rule.tenantId, rule.id);
    }
    const after = await this.store.syncSources.get(source.tenantId, source.id);
    return { source: after ?? source, applied: true, deleted, createdIds: new Map(creates.map((rule, i) => [plan.creates[i]?.path ?? '', rule.id])) };
  }
}

/** The checks' reports, with each valid file's rule resolved (a failure to resolve fails the file). */
function resolveFiles(reports: readonly RuleFileReport[], source: SyncSourceRecord): { desired: DesiredRule[]; files: SyncFileResult[] } {
  const desired: DesiredRule[] = [];
  const files = reports.map(({ definition, ...report }): SyncFileResult => {
    if (!isPassing(report.status)) return report;
    if (definition === undefined) return { ...report, status: 'Invalid', error: 'the rule file checks gave no definition' };
    try {
      desired.push({ path: report.path, fields: syncedRuleFieldsOf(definition, source) });
      return report;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { ...report, status: 'Invalid', error: messageOf(error) };
    }
  });
  return { desired, files };
}

// A file without tests passes validation alone.
function isPassing(status: RuleFileStatus): boolean {
  return status === 'Passed' || status === 'Valid';
}

function withActions(files: readonly SyncFileResult[], plan: SyncPlan, createdIds: Map<string, string>): SyncFileResult[] {
  const actions = new Map<string, { action: SyncAction; ruleId: string }>();
  for (const { path, rule } of plan.updates) actions.set(path, { action: 'updated', ruleId: rule.id });
  for (const { path, rule } of plan.unchanged) actions.set(path, { action: 'unchanged', ruleId: rule.id });
  for (const [path, ruleId] of createdIds) actions.set(path, { action: 'created', ruleId });
  return files.map((file) => ({ ...file, ...actions.get(file.path) }));
}

function newRule(source: SyncSourceRecord, file: DesiredRule, authorUserId: string | null, now: number): DetectionRuleRecord {
  return {
    ...file.fields,
    id: newId(),
    tenantId: source.tenantId,
    preparedQueryId: newId(),
    enabledStateOverride: null,
    syncKey: syncKeyOf(source.id, file.path),
    detectionRuleSyncId: source.id,
    authorUserId,
    createdAt: now,
    updatedAt: now,
    lastAlertedAt: null,
  };
}

function deletedDuringSync(sourceId: string): NotFoundError {
  return new NotFoundError(`sync source ${JSON.stringify(sourceId)} was deleted during the sync`);
}

function checkCommitSha(value: string): string {
  if (!/^[^\s\p{Cc}]{1,100}$/u.test(value)) throw new ValidationError('commit_sha must be 1-100 characters without spaces', { field: 'commit_sha' });
  return value;
}

function checkCommitMessage(value: string | null): string | null {
  if (value !== null && value.length > 10_000) throw new ValidationError('commit_message is longer than 10000 characters', { field: 'commit_message' });
  return value;
}

import { isDeepStrictEqual } from 'node:util';
import type { DetectionRuleRecord } from '../store/index.js';

/** Every field of a rule that its file decides (the rest is the user's or the engine's). */
export type SyncedRuleFields = Pick<
  DetectionRuleRecord,
  | 'name'
  | 'description'
  | 'queryText'
  | 'timeRangeS'
  | 'runFrequencyS'
  | 'debounce'
  | 'alertPerRow'
  | 'dedupWindowS'
  | 'enabledStateSynced'
  | 'severity'
  | 'alertTemplate'
  | 'tags'
  | 'eventSinkIds'
>;

const syncedFieldNames = [
  'name',
  'description',
  'queryText',
  'timeRangeS',
  'runFrequencyS',
  'debounce',
  'alertPerRow',
  'dedupWindowS',
  'enabledStateSynced',
  'severity',
  'alertTemplate',
  'tags',
  'eventSinkIds',
] as const satisfies readonly (keyof SyncedRuleFields)[];

/** A rule file of the archive, read and resolved: the rule it asks for. */
export interface DesiredRule {
  readonly path: string;
  readonly fields: SyncedRuleFields;
}

/** What a sync does so that a source's rules match its archive exactly. */
export interface SyncPlan {
  readonly creates: readonly DesiredRule[];
  /** Only the fields that differ. */
  readonly updates: readonly { readonly path: string; readonly rule: DetectionRuleRecord; readonly changes: Partial<SyncedRuleFields> }[];
  readonly unchanged: readonly { readonly path: string; readonly rule: DetectionRuleRecord }[];
  /** Rules whose file is gone (`path` null for a rule whose sync key names no file of this source). */
  readonly deletes: readonly { readonly path: string | null; readonly rule: DetectionRuleRecord }[];
}

/**
 * The sync key of the rule a file of a source defines. A synced rule's identity is its file path
 * within its source (detections.md 3.5: the archive sync ignores the file's own `push_key`); the
 * source id keeps keys of two sources of a tenant apart, as `sync_key` is unique per tenant.
 */
export function syncKeyOf(sourceId: string, path: string): string {
  return `sync:${sourceId}:${path}`;
}

/** The file path a synced rule's key names, or null when the key is not one of this source's. */
export function pathOfSyncKey(sourceId: string, syncKey: string | null): string | null {
  const prefix = syncKeyOf(sourceId, '');
  return syncKey !== null && syncKey.startsWith(prefix) && syncKey.length > prefix.length ? syncKey.slice(prefix.length) : null;
}

/**
 * Plans a sync: a file whose path has no rule creates one, a rule whose file differs is updated
 * in the fields that differ, a rule whose file is gone is deleted. A renamed file is a new path:
 * its old rule is deleted and a new one created. Pure: the caller reads and writes the store.
 */
export function planSync(sourceId: string, desired: readonly DesiredRule[], existing: readonly DetectionRuleRecord[]): SyncPlan {
  const byPath = new Map<string, DetectionRuleRecord>();
  const deletes: { path: string | null; rule: DetectionRuleRecord }[] = [];
  for (const rule of existing) {
    const path = pathOfSyncKey(sourceId, rule.syncKey);
    if (path === null || byPath.has(path)) deletes.push({ path, rule });
    else byPath.set(path, rule);
  }
  const wanted = new Set<string>();
  const creates: DesiredRule[] = [];
  const updates: { path: string; rule: DetectionRuleRecord; changes: Partial<SyncedRuleFields> }[] = [];
  const unchanged: { path: string; rule: DetectionRuleRecord }[] = [];
  for (const file of desired) {
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: the archive reader never yields a path twice
    if (wanted.has(file.path)) throw new Error(`planSync: ${file.path} is given twice`);
    wanted.add(file.path);
    const rule = byPath.get(file.path);
    if (rule === undefined) {
      creates.push(file);
      continue;
    }
    const changes = changedFields(rule, file.fields);
    if (Object.keys(changes).length === 0) unchanged.push({ path: file.path, rule });
    else updates.push({ path: file.path, rule, changes });
  }
  for (const [path, rule] of byPath) if (!wanted.has(path)) deletes.push({ path, rule });
  return { creates, updates, unchanged, deletes };
}

function changedFields(rule: DetectionRuleRecord, fields: SyncedRuleFields): Partial<SyncedRuleFields> {
  const changes: Record<string, unknown> = {};
  for (const name of syncedFieldNames) {
    if (!isDeepStrictEqual(rule[name], fields[name])) changes[name] = fields[name];
  }
  return changes as Partial<SyncedRuleFields>;
}

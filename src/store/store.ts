import type {
  AlertDeliveryRecord,
  AlertRecord,
  AlertStatus,
  ApiKeyRecord,
  ClaimedDelivery,
  DeliveryAttemptRecord,
  DeliveryStatus,
  PendingDetection,
  QueryRecord,
  QueryRecordStatus,
  RuleRunState,
  ScheduledRule,
  AuditEntry,
  ChatIntegrationRecord,
  DetectionRuleRecord,
  DetectionRuleSummary,
  EventSinkRecord,
  IndexKind,
  IndexRecord,
  Page,
  TenantRecord,
} from './records.js';
import type { DetectionRuleChanges, PageOptions } from './repository-options.js';
import type { IngestReceiptRepository } from './ingest-receipt-store.js';
import type { SyncSourceRepository } from './sync-source-store.js';
import type { LookupTableRepository, QueryUsageRepository } from './compatibility-store.js';

export type { DetectionRuleChanges, PageOptions } from './repository-options.js';

/**
 * The metadata store contract: one repository per aggregate. Adapters: sqlite/ (embedded) and,
 * later, postgres/ — both must pass the same contract suite (src/store/testing/store-contract.ts).
 * Every method that takes a tenant id only ever sees that tenant's rows.
 */
export interface Store {
  /** Applies pending versioned migrations. Idempotent. */
  migrate(): Promise<void>;
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly indexes: IndexRepository;
  readonly audit: AuditRepository;
  readonly rules: DetectionRuleRepository;
  readonly sinks: EventSinkRepository;
  readonly chatIntegrations: ChatIntegrationRepository;
  readonly detectionState: DetectionStateRepository;
  readonly alerts: AlertRepository;
  readonly syncSources: SyncSourceRepository;
  readonly lookupTables: LookupTableRepository;
  readonly queryUsage: QueryUsageRepository;
  readonly ingestReceipts: IngestReceiptRepository;
  readonly leases: LeaseRepository;
  readonly queries: QueryRecordRepository;
  close(): Promise<void>;
}

export interface TenantRepository {
  /**
   * Returns the tenant, creating it when missing with this name (default: its id); ConflictError
   * when another tenant has the name.
   */
  ensure(id: string, atMs: number, name?: string): Promise<{ tenant: TenantRecord; created: boolean }>;
  get(id: string): Promise<TenantRecord | null>;
  /** The tenant of this name (docs/compatibility.md: `tenant_id` may give a name), or null. */
  getByName(name: string): Promise<TenantRecord | null>;
  list(): Promise<TenantRecord[]>;
  /** Reserves `count` consecutive event sequence numbers of the tenant; returns the first. */
  reserveSequence(tenantId: string, count: number): Promise<bigint>;
}

export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  /** The live (not revoked) key with this hash, or null. */
  findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  get(id: string): Promise<ApiKeyRecord | null>;
  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no such live key. */
  revoke(id: string, atMs: number): Promise<boolean>;
  /** Records use at most once a minute per key (cheap enough to call on every request). */
  touch(id: string, atMs: number): Promise<void>;
  /** True when at least one live key exists (first start creates the bootstrap key otherwise). */
  anyActive(): Promise<boolean>;
}

export interface IndexListOptions {
  readonly kind?: IndexKind;
  readonly pageSize: number;
  /** A token from a previous page; malformed tokens raise ValidationError on `pagination[page_token]`. */
  readonly pageToken?: string;
}

export interface IndexRepository {
  /** Inserts a new index; ConflictError when a live index of the tenant has the name. */
  insert(index: IndexRecord): Promise<void>;
  /** The live index, or null (deleted and other tenants' indexes are null too). */
  get(tenantId: string, id: string): Promise<IndexRecord | null>;
  getByName(tenantId: string, name: string): Promise<IndexRecord | null>;
  /**
   * The live index with this id whatever its tenant, or null. For `GET /v1/index/{id}`, whose
   * request names no tenant: the caller must check the key holds the index's tenant (else 404).
   */
  getAnyTenant(id: string): Promise<IndexRecord | null>;
  /** Live indexes ordered by name then id, keyset-paginated with opaque stable tokens. */
  list(tenantId: string, options: IndexListOptions): Promise<Page<IndexRecord>>;
  /** Every live index of every tenant (maintenance: retention sweeps). */
  listAllLive(): Promise<IndexRecord[]>;
  update(
    tenantId: string,
    id: string,
    changes: Partial<Pick<IndexRecord, 'description' | 'retentionDays' | 'timestampFields' | 'sourceType'>>,
    atMs: number,
  ): Promise<IndexRecord | null>;
  /** Soft-deletes; the name becomes free at once. False when no such live index. */
  markDeleted(tenantId: string, id: string, atMs: number): Promise<boolean>;
  /** Deleted indexes whose events still need purging. */
  listDeleted(): Promise<IndexRecord[]>;
  /** Removes a deleted index's row once its events are gone. */
  purge(id: string): Promise<void>;
}

/**
 * Audit trail outbox. Mutations are recorded here in the same process that makes them (CLI or
 * server); the server ships them to each tenant's `_audit` index, so the trail survives whichever
 * process holds the events engine.
 */
export interface AuditRepository {
  append(entry: AuditEntry): Promise<void>;
  /** Oldest entries not yet shipped to the engine. */
  listUnshipped(limit: number): Promise<AuditEntry[]>;
  markShipped(ids: readonly string[]): Promise<void>;
}

/**
 * Detection rules and the sinks they alert. A rule's sinks are rows of a link table whose foreign
 * key names the sink together with the tenant, so a rule can only ever point at existing sinks of
 * its own tenant, whatever the callers do.
 */
export interface DetectionRuleRepository {
  /**
   * Inserts a rule with its sinks in one transaction. NotFoundError for an unknown tenant,
   * ValidationError on `event_sink_ids` when a sink is not one of the tenant's, ConflictError when
   * the tenant has a rule with the same sync key.
   */
  insert(rule: DetectionRuleRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<DetectionRuleRecord | null>;
  /** The rule with this id whatever its tenant; the caller checks the requester may see that tenant. */
  getAnyTenant(id: string): Promise<DetectionRuleRecord | null>;
  getBySyncKey(tenantId: string, syncKey: string): Promise<DetectionRuleRecord | null>;
  /** Every tenant's rule with this sync key (at most one per tenant), oldest first; the caller filters the tenants it may see. */
  listBySyncKeyAnyTenant(syncKey: string): Promise<DetectionRuleRecord[]>;
  /** Rules in creation order (then id), keyset-paginated with opaque stable tokens; without sink ids. */
  list(tenantId: string, options: PageOptions): Promise<Page<DetectionRuleSummary>>;
  /** Every rule of the tenant whose sinks include this one. */
  listUsingSink(tenantId: string, sinkId: string): Promise<string[]>;
  /**
   * Changes the given fields (and the sinks, replaced as a whole) in one transaction and stamps
   * updatedAt; no fields, no write. Null when no such rule. Errors as for insert.
   */
  update(tenantId: string, id: string, changes: DetectionRuleChanges, atMs: number): Promise<DetectionRuleRecord | null>;
  /** Deletes the rule and its sink links; false when no such rule. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Records that the rule alerted (for the detection engine); false when no such rule. */
  markAlerted(tenantId: string, id: string, atMs: number): Promise<boolean>;
}

export type EventSinkChanges = Partial<Pick<EventSinkRecord, 'name' | 'description' | 'type' | 'config' | 'sealedSecrets' | 'chatIntegrationId'>>;

export interface EventSinkRepository {
  /** NotFoundError for an unknown tenant; ValidationError on `chat_integration_id` for an integration not of the tenant. */
  insert(sink: EventSinkRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<EventSinkRecord | null>;
  getAnyTenant(id: string): Promise<EventSinkRecord | null>;
  /** Sinks in creation order (then id), keyset-paginated with opaque stable tokens. */
  list(tenantId: string, options: PageOptions): Promise<Page<EventSinkRecord>>;
  /** Which of these ids are sinks of the tenant. */
  existing(tenantId: string, ids: readonly string[]): Promise<Set<string>>;
  /** Changes the given fields and stamps updatedAt. Null when no such sink. */
  update(tenantId: string, id: string, changes: EventSinkChanges, atMs: number): Promise<EventSinkRecord | null>;
  /**
   * Deletes the sink and, in the same transaction, removes it from every rule that used it
   * (stamping their updatedAt). The ids of those rules, or null when no such sink.
   */
  delete(tenantId: string, id: string, atMs: number): Promise<{ readonly detachedRuleIds: string[] } | null>;
}

export interface ChatIntegrationRepository {
  /** NotFoundError for an unknown tenant. */
  insert(integration: ChatIntegrationRecord): Promise<void>;
  get(tenantId: string, id: string): Promise<ChatIntegrationRecord | null>;
  /** The tenant's integrations (every tenant's without one), oldest first. */
  list(tenantId?: string): Promise<ChatIntegrationRecord[]>;
  /** False when no such integration; ConflictError while sinks still post through it. */
  delete(tenantId: string, id: string): Promise<boolean>;
}

/** An alert to store with its outbox rows (none when suppressed or when the rule has no sinks). */
export interface NewAlert {
  readonly alert: AlertRecord;
  readonly deliveries: readonly AlertDeliveryRecord[];
}

/** Everything one evaluated window changes, written in one transaction (detections.md E13). */
export interface WindowCommit {
  readonly tenantId: string;
  readonly ruleId: string;
  readonly windowEndMs: number;
  /** The cursor the run started from: the commit happens only if it is still the rule's cursor. */
  readonly expectedCursorMs: number | null;
  /** The lease the run held: the commit happens only if its holder still holds it (another server may have taken it over). */
  readonly lease?: { readonly name: string; readonly holder: string };
  readonly ranAtMs: number;
  /** Identities of the rows the alerts carried, remembered with `windowEndMs` (E5). */
  readonly identities: readonly string[];
  /** Memory of windows ending at or before this can never overlap a later window: it is dropped. */
  readonly forgetIdentitiesUpToMs: number;
  /** Dedup keys sent by this window's alerts (E6). */
  readonly sentDedupKeys: readonly string[];
  readonly alerts: readonly NewAlert[];
  /** Set on the rule when an Active rule alerted (E7). */
  readonly lastAlertedAtMs: number | null;
  /** The window's `_detections` events, queued for shipping to the events engine. */
  readonly detections: readonly PendingDetection[];
}

/**
 * The scheduler's state per rule and the evaluator's memory. `commitWindow` is the one write of a
 * run: the cursor, the memory, the alerts and their outbox rows together, so a crash leaves
 * either all of a window or none of it.
 */
export interface DetectionStateRepository {
  /** Every Active or Staging rule of every tenant (effective state), with its sinks and state. */
  listScheduled(): Promise<ScheduledRule[]>;
  getState(ruleId: string): Promise<RuleRunState | null>;
  /** Forgets the cursor, so the next run evaluates only the latest window (E3 on re-activation). */
  resetCursor(tenantId: string, ruleId: string): Promise<void>;
  /** Records a failed run; the cursor stays, so the window is tried again. */
  recordFailure(tenantId: string, ruleId: string, error: string, atMs: number): Promise<void>;
  /**
   * Moves the cursor over windows older than the catch-up horizon and records them as the rule's
   * latest gap (E2): `(fromMs, toMs]` of window ends, `windows` of them. False when the cursor moved meanwhile.
   */
  recordGap(tenantId: string, ruleId: string, expectedCursorMs: number | null, fromMs: number, toMs: number, windows: number): Promise<boolean>;
  /** Identities the rule alerted in windows ending after `afterWindowEndMs`. */
  alertedIdentities(ruleId: string, afterWindowEndMs: number): Promise<Set<string>>;
  /** For each of these keys the rule sent, the window end of its last sending. */
  lastSent(ruleId: string, keys: readonly string[]): Promise<Map<string, number>>;
  /** Applies a window's run; false (and nothing written) when the cursor is no longer `expectedCursorMs`. */
  commitWindow(commit: WindowCommit): Promise<boolean>;
  /** Detections not yet written to `_detections`, oldest first. */
  unshippedDetections(limit: number): Promise<PendingDetection[]>;
  /** Forgets detections the events engine now holds. */
  markDetectionsShipped(ids: readonly string[]): Promise<void>;
}

export interface AlertListOptions extends PageOptions {
  readonly ruleId?: string;
  readonly status?: AlertStatus;
}

/** How one attempt ended and what the delivery becomes. */
export interface AttemptResult {
  readonly attempt: DeliveryAttemptRecord;
  readonly status: DeliveryStatus;
  readonly nextAttemptAt: number;
}

/** Alerts, their outbox rows and their delivery attempts. */
export interface AlertRepository {
  /** The tenant's alerts, newest first (creation time, then id), keyset-paginated like the other lists. */
  list(tenantId: string, options: AlertListOptions): Promise<Page<AlertRecord>>;
  get(tenantId: string, id: string): Promise<AlertRecord | null>;
  /** The alert whatever its tenant; the caller checks the requester may see that tenant. */
  getAnyTenant(id: string): Promise<AlertRecord | null>;
  /** The alert's deliveries, in sink order of creation. */
  deliveries(alertId: string): Promise<AlertDeliveryRecord[]>;
  /** Every attempt at the alert's deliveries, oldest first (attempts of one moment in the deliveries' order). */
  attempts(alertId: string): Promise<DeliveryAttemptRecord[]>;
  /**
   * Leases up to `limit` pending deliveries due at `nowMs` (oldest due first) until `leaseUntilMs`,
   * skipping those of `skipSinkIds`. A lease that expired (its worker died mid-send) is claimable
   * again: delivery is at least once.
   */
  claimDue(nowMs: number, limit: number, leaseUntilMs: number, skipSinkIds: ReadonlySet<string>): Promise<ClaimedDelivery[]>;
  /** Records an attempt, updates its delivery (releasing the lease) and the alert's status, in one transaction. */
  recordAttempt(deliveryId: string, result: AttemptResult, atMs: number): Promise<void>;
  /** Re-queues every delivery of the alert from `nowMs` with a new give-up horizon; how many. */
  resend(tenantId: string, alertId: string, nowMs: number): Promise<number>;
  /**
   * Ends every lease at once (`vigil serve` starting in embedded mode, where the data directory
   * lock proves the workers that held them are gone); how many.
   */
  releaseLeases(): Promise<number>;
  /** Deliveries still pending (the outbox depth). */
  pendingCount(): Promise<number>;
  /** When the earliest pending delivery is due, or null. */
  nextDueAt(): Promise<number | null>;
}

/**
 * Named, expiring claims on work that must run once at a time across every process of the store
 * (docs/scale-out.md): a rule's windows, maintenance, shipping detections. A holder that dies
 * keeps its lease only until it expires.
 */
export interface LeaseRepository {
  /** Takes the lease, or renews it, until `untilMs` when it is free, expired at `nowMs` or already `holder`'s; whether it did. */
  claim(name: string, holder: string, nowMs: number, untilMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` has it. */
  release(name: string, holder: string): Promise<void>;
  /** The holder of a lease not yet expired at `nowMs`, or null. */
  holder(name: string, nowMs: number): Promise<string | null>;
  /** Ends every lease: an embedded store's only process starting (its data dir lock proves the holders dead); how many. */
  releaseAll(): Promise<number>;
}

/** What the server running a query writes as it goes (and once at its end). */
export interface QueryRecordProgress {
  readonly status: QueryRecordStatus;
  readonly result: string | null;
  readonly bytesScanned: number;
  readonly truncated: boolean;
  readonly error: string | null;
  readonly atMs: number;
}

/** Ad hoc queries shared by the servers of one store, so any of them answers progress and cancel. */
export interface QueryRecordRepository {
  insert(record: QueryRecord): Promise<void>;
  get(id: string): Promise<QueryRecord | null>;
  /** The owner's write: progress, or the end (a status other than running stamps finishedAt). */
  update(id: string, progress: QueryRecordProgress): Promise<void>;
  /** Marks the owner's running queries alive at `atMs`. */
  heartbeat(ids: readonly string[], atMs: number): Promise<void>;
  /** Asks the owner to cancel a running query (it polls); no-op once finished or for an unknown id. */
  requestCancel(id: string, atMs: number): Promise<void>;
  /** Of these queries, the ones still running whose cancellation someone asked for. */
  cancelRequested(ids: readonly string[]): Promise<string[]>;
  /** Forgets queries finished before `beforeMs`, and running ones whose owner went silent before `silentBeforeMs`; how many. */
  deleteExpired(beforeMs: number, silentBeforeMs: number): Promise<number>;
}

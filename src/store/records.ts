import type { AlertMessage, AlertTemplateRecord, EnabledState, EventSinkType, Severity } from '../domain/index.js';

/** Rows of the metadata store, as the rest of the service sees them. Times are epoch ms. */

export interface TenantRecord {
  readonly id: string;
  /** Unique among tenants; the id unless the tenant was made under a name (the bootstrap tenant `default`). */
  readonly name: string;
  readonly createdAt: number;
}

/** An API key. The secret itself is never stored: only its SHA-256 hex digest. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  /** The first characters of the secret (`vgl_ab12…`), shown in listings so a key can be recognised. */
  readonly prefix: string;
  readonly keyHash: string;
  /** Tenants this key may act on; `['*']` means every tenant (admin keys). */
  readonly tenants: readonly string[];
  readonly createdAt: number;
  readonly revokedAt: number | null;
  readonly lastUsedAt: number | null;
}

export type IndexKind = 'user' | 'system';

export interface IndexRecord {
  readonly id: string;
  readonly tenantId: string;
  /** Unique per tenant among live indexes; `@index` in queries. */
  readonly name: string;
  readonly description: string;
  /** `system` for `_detections` and `_audit`: never listed, their ids answer 404. */
  readonly kind: IndexKind;
  /** Days events are kept; null keeps them forever. */
  readonly retentionDays: number | null;
  /** Fields tried for the event time, in order; null means the service defaults. */
  readonly timestampFields: readonly string[] | null;
  /** Default `@svc.source_type` of events ingested without one; null means `custom:generic`. */
  readonly sourceType: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Set when deleted; the events are purged in the background, then the row is removed. */
  readonly deletedAt: number | null;
}

export interface AuditEntry {
  readonly id: string;
  readonly tenantId: string;
  readonly at: number;
  /** Who: `key:<api key id>`, `cli`, or `system`. */
  readonly actor: string;
  /** What, as `<resource>.<verb>`: `index.create`, `api_key.revoke`, `ingest`. */
  readonly action: string;
  /** The object acted on (an id or name), or null. */
  readonly target: string | null;
  /** Extra facts; never secrets. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** A page of a keyset-paginated listing. */
export interface Page<T> {
  readonly items: T[];
  /** Opaque token for the next page, or null when this is the last one. */
  readonly nextPageToken: string | null;
}

export interface DetectionRuleRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string;
  readonly queryText: string;
  /** A new id whenever `queryText` changes: it names one version of the rule's query. */
  readonly preparedQueryId: string;
  readonly timeRangeS: number;
  readonly runFrequencyS: number;
  readonly debounce: boolean;
  readonly alertPerRow: boolean;
  /** Null means the rule's run frequency. */
  readonly dedupWindowS: number | null;
  /** The user's state; non-null wins over `enabledStateSynced`. */
  readonly enabledStateOverride: EnabledState | null;
  /** The state a sync source gave the rule; null for rules made through the API. */
  readonly enabledStateSynced: EnabledState | null;
  readonly severity: Severity;
  readonly alertTemplate: AlertTemplateRecord | null;
  readonly tags: readonly string[];
  /** Unique per tenant among rules that have one. */
  readonly syncKey: string | null;
  /** Set for rules synced from a source repository: only their override may then change through the API. */
  readonly detectionRuleSyncId: string | null;
  /** The name of the API key that created the rule, or null. */
  readonly authorUserId: string | null;
  /** The sinks alerts go to, in the order given; every one is a sink of the same tenant. */
  readonly eventSinkIds: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly lastAlertedAt: number | null;
}

/** A rule as listings return it: without its sink ids (docs/interface.md 4.2). */
export type DetectionRuleSummary = Omit<DetectionRuleRecord, 'eventSinkIds'>;

/**
 * An event sink. The store keeps the variant's public arguments as a JSON object and its secret
 * ones sealed (by the service, with the deployment's secrets key): it never sees a secret in clear.
 */
export interface EventSinkRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string;
  readonly type: EventSinkType;
  /** The variant's public arguments (never secrets). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The variant's secret arguments, sealed; null when it has none. */
  readonly sealedSecrets: string | null;
  /** For Chat sinks, the chat integration of the same tenant they post through; else null. */
  readonly chatIntegrationId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A chat workspace connection registered by an operator; its bot token is stored sealed. */
export interface ChatIntegrationRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  /** The chat Web API base URL; null means the service default. */
  readonly apiUrl: string | null;
  readonly sealedToken: string;
  /** Enough of the token to recognise it (`xoxb-…wxyz`), never enough to use it. */
  readonly tokenHint: string;
  readonly createdAt: number;
}

/** What the scheduler keeps per rule (detections.md E2): its cursor, its last run, and its latest gap. */
export interface RuleRunState {
  readonly ruleId: string;
  readonly tenantId: string;
  /** End of the last evaluated window (epoch ms); null until the first run (or after re-activation). */
  readonly cursorMs: number | null;
  readonly lastRunAt: number | null;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
  /** Failed runs in a row; the scheduler waits longer after each. */
  readonly consecutiveFailures: number;
  /** The latest windows skipped as older than the catch-up horizon: `(gapStartMs, gapEndMs]` of window ends. */
  readonly gapStartMs: number | null;
  readonly gapEndMs: number | null;
  /** Windows skipped in all. */
  readonly skippedWindows: number;
}

/** A rule the scheduler runs (Active or Staging), with its state. */
export interface ScheduledRule {
  readonly rule: DetectionRuleRecord;
  readonly state: RuleRunState | null;
}

/**
 * An alert's overall state: `pending` while a delivery may still be tried, `delivered` when every
 * sink took it, `failed` when some sink gave up, `suppressed` by dedup (never sent), `no_sinks`
 * when the rule had no sink to send it to.
 */
export type AlertStatus = 'pending' | 'delivered' | 'failed' | 'suppressed' | 'no_sinks';

export interface AlertRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly ruleId: string;
  readonly ruleName: string;
  readonly severity: Severity;
  readonly windowStartMs: number;
  readonly windowEndMs: number;
  readonly status: AlertStatus;
  /** The E6 dedup key (a hash), or null when the rule has no dedup items. */
  readonly dedupKey: string | null;
  /** The alert object as sinks receive it; the store keeps it as JSON. */
  readonly payload: AlertMessage;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One row of the outbox: an alert to send to one sink. */
export interface AlertDeliveryRecord {
  readonly id: string;
  readonly alertId: string;
  readonly tenantId: string;
  readonly sinkId: string;
  readonly sinkType: EventSinkType;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  /** Start of the give-up horizon: when queued, or re-queued by a resend. */
  readonly queuedAt: number;
  readonly lastError: string | null;
  readonly lastHttpStatus: number | null;
  readonly deliveredAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type AttemptOutcome = 'delivered' | 'retryable' | 'permanent';

/** One delivery attempt, recorded whatever its outcome (E13). */
export interface DeliveryAttemptRecord {
  readonly id: string;
  readonly deliveryId: string;
  readonly alertId: string;
  readonly at: number;
  readonly outcome: AttemptOutcome;
  readonly httpStatus: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
}

/** A delivery the worker claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly delivery: AlertDeliveryRecord;
  readonly payload: AlertMessage;
}

/** A detection event waiting for (or done with) its write to the tenant's `_detections` index. */
export interface PendingDetection {
  /** The detection's id (also its alert's). */
  readonly id: string;
  readonly tenantId: string;
  /** When it fired. */
  readonly at: number;
  readonly event: Readonly<Record<string, unknown>>;
}

/**
 * A repository a tenant syncs rules from (detections.md 3.5), named by (tenant, push key, branch).
 * `sinkKeys` maps the `event_sink_keys` of its rule files to sinks of the same tenant (3.4).
 */
export interface SyncSourceRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly pushKey: string;
  readonly branch: string;
  /** Each key names one or more sinks, in order. */
  readonly sinkKeys: Readonly<Record<string, readonly string[]>>;
  /** Applied syncs so far; a sync applies only over the revision it was planned against. */
  readonly revision: number;
  /** The commit of the last applied sync (`+dirty` kept verbatim), or null before the first. */
  readonly lastCommitSha: string | null;
  readonly lastCommitMessage: string | null;
  readonly lastSyncedAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type QueryRecordStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * An ad hoc query as every server of a shared store sees it (docs/scale-out.md). The store keeps
 * its result and error as the search module's JSON text, without reading them.
 */
export interface QueryRecord {
  readonly id: string;
  readonly tenantId: string;
  /** The server running it (its lease holder id). */
  readonly owner: string;
  readonly status: QueryRecordStatus;
  readonly result: string | null;
  readonly bytesScanned: number;
  readonly truncated: boolean;
  readonly error: string | null;
  readonly cancelRequestedAt: number | null;
  readonly createdAt: number;
  /** The owner's last write (its heartbeat while the query runs). */
  readonly updatedAt: number;
  readonly finishedAt: number | null;
}

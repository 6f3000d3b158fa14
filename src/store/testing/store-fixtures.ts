import { afterEach, beforeEach } from 'vitest';
import { newId } from '../../core/index.js';
import type { ApiKeyRecord, AuditEntry, ChatIntegrationRecord, DetectionRuleRecord, EventSinkRecord, IndexRecord } from '../records.js';
import type { Store } from '../store.js';

/** Makes a new, empty store each call (a fresh `:memory:` database, a new temp file, a new schema). */
export type StoreFactory = () => Promise<Store>;

/** Gives each test of the enclosing describe a fresh migrated store, closed afterwards. */
export function useMigratedStore(makeStore: StoreFactory): () => Store {
  let store: Store | undefined;
  beforeEach(async () => {
    store = await makeStore();
    await store.migrate();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  return () => {
    if (store === undefined) throw new Error('the store exists only inside a test');
    return store;
  };
}

/** A user index with every optional setting filled in, so round trips check every column. */
export function anIndex(tenantId: string, name: string, overrides: Partial<IndexRecord> = {}): IndexRecord {
  return {
    id: newId(),
    tenantId,
    name,
    description: `the ${name} index`,
    kind: 'user',
    retentionDays: 30,
    timestampFields: ['eventTime', 'ts'],
    sourceType: 'aws:cloudtrail',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    deletedAt: null,
    ...overrides,
  };
}

/** A live API key; the hash is unique per call. */
export function anApiKey(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const id = newId();
  return {
    id,
    name: `key ${id.slice(0, 8)}`,
    prefix: 'vgl_ab12',
    keyHash: `hash-${id}`,
    tenants: ['acme'],
    createdAt: 1_700_000_000_000,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  };
}

/** An audit entry of tenant `acme`. */
export function anAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: newId(),
    tenantId: 'acme',
    at: 1_700_000_000_000,
    actor: 'cli',
    action: 'index.create',
    target: 'web',
    details: { name: 'web', retention_days: 30 },
    ...overrides,
  };
}

/** A rule with every optional field filled in, so round trips check every column. */
export function aRule(tenantId: string, overrides: Partial<DetectionRuleRecord> = {}): DetectionRuleRecord {
  const id = newId();
  return {
    id,
    tenantId,
    name: `rule ${id.slice(0, 8)}`,
    description: 'fires on admin policy attachments',
    queryText: 'eventName: AttachUserPolicy | stats count() by userIdentity.arn',
    preparedQueryId: newId(),
    timeRangeS: 300,
    runFrequencyS: 60,
    debounce: true,
    alertPerRow: true,
    dedupWindowS: 3600,
    enabledStateOverride: 'Active',
    enabledStateSynced: null,
    severity: 'High',
    alertTemplate: {
      info: [{ label: 'Principal', value: '{{@alert.results_table.rows[0].userIdentity.arn}}', useForDedup: true }],
      actions: [{ label: 'Runbook', value: 'https://runbooks.example.com/iam' }],
    },
    tags: ['tactics.ta0004.privilege_escalation', 'source.cloudtrail'],
    syncKey: null,
    detectionRuleSyncId: null,
    authorUserId: 'key for acme',
    eventSinkIds: [],
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    lastAlertedAt: null,
    ...overrides,
  };
}

/** A webhook sink with sealed secrets. */
export function aSink(tenantId: string, overrides: Partial<EventSinkRecord> = {}): EventSinkRecord {
  return {
    id: newId(),
    tenantId,
    name: 'security alerts',
    description: 'posts to the SOAR',
    type: 'Webhook',
    config: { url: 'https://hooks.example.com/in', header_names: ['X-Token'], has_signing_secret: true },
    sealedSecrets: 'v1.sealed-elsewhere',
    chatIntegrationId: null,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** A chat integration; the token is whatever the service sealed. */
export function aChatIntegration(tenantId: string, overrides: Partial<ChatIntegrationRecord> = {}): ChatIntegrationRecord {
  return {
    id: newId(),
    tenantId,
    name: 'acme workspace',
    apiUrl: null,
    sealedToken: 'v1.sealed-token',
    tokenHint: 'xoxb-…abcd',
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}

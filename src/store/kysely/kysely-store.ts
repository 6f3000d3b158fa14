import type { Kysely } from 'kysely';
import type { Clock } from '../../core/index.js';
import { migrateStore } from '../migrations/migrate-store.js';
import type {
  AlertRepository,
  ApiKeyRepository,
  DetectionStateRepository,
  AuditRepository,
  ChatIntegrationRepository,
  DetectionRuleRepository,
  EventSinkRepository,
  IndexRepository,
  LeaseRepository,
  QueryRecordRepository,
  Store,
  TenantRepository,
} from '../store.js';
import type { IngestReceiptRepository } from '../ingest-receipt-store.js';
import type { SyncSourceRepository } from '../sync-source-store.js';
import type { LookupTableRepository, QueryUsageRepository } from '../compatibility-store.js';
import { KyselyLookupTableRepository } from './kysely-lookup-table-repository.js';
import { KyselyQueryUsageRepository } from './kysely-query-usage-repository.js';
import type { StoreDatabase } from '../store-database.js';
import { KyselyAlertRepository } from './kysely-alert-repository.js';
import { KyselyApiKeyRepository } from './kysely-api-key-repository.js';
import { KyselyDetectionStateRepository } from './kysely-detection-state-repository.js';
import { KyselyAuditRepository } from './kysely-audit-repository.js';
import { KyselyChatIntegrationRepository } from './kysely-chat-integration-repository.js';
import { KyselyDetectionRuleRepository } from './kysely-detection-rule-repository.js';
import { KyselyEventSinkRepository } from './kysely-event-sink-repository.js';
import { KyselyIndexRepository } from './kysely-index-repository.js';
import { KyselyIngestReceiptRepository } from './kysely-ingest-receipt-repository.js';
import { KyselyLeaseRepository } from './kysely-lease-repository.js';
import { KyselyQueryRecordRepository } from './kysely-query-record-repository.js';
import { KyselySyncSourceRepository } from './kysely-sync-source-repository.js';
import { KyselyTenantRepository } from './kysely-tenant-repository.js';
import { StoreQueryRunner, type ViolationClassifier } from './store-query-runner.js';

export interface KyselyStoreOptions {
  /** Recognises the driver's unique and foreign-key violations. */
  readonly classifyViolation: ViolationClassifier;
  /** Time for the few writes whose caller gives none (`audit.markShipped`). */
  readonly clock: Clock;
  /** The schema holding the tables, when not the default one (PostgreSQL). */
  readonly schema?: string;
  /**
   * Whether the dialect locks rows with `SELECT … FOR UPDATE` (PostgreSQL). SQLite has no row
   * locks and needs none: its write transactions exclude each other.
   */
  readonly selectForUpdate?: boolean;
}

/**
 * The Store over any Kysely dialect. Adapters differ only in how they open the connection and
 * read their driver's errors; every statement and every migration is shared, which is what lets
 * one contract suite vouch for all of them.
 */
export class KyselyStore implements Store {
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
  private closed: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<StoreDatabase>,
    private readonly options: KyselyStoreOptions,
  ) {
    const runner = new StoreQueryRunner(options.classifyViolation);
    this.tenants = new KyselyTenantRepository(db, runner);
    this.apiKeys = new KyselyApiKeyRepository(db, runner);
    this.indexes = new KyselyIndexRepository(db, runner);
    this.audit = new KyselyAuditRepository(db, runner, options.clock);
    this.rules = new KyselyDetectionRuleRepository(db, runner);
    this.sinks = new KyselyEventSinkRepository(db, runner, { selectForUpdate: options.selectForUpdate ?? false });
    this.chatIntegrations = new KyselyChatIntegrationRepository(db, runner);
    this.detectionState = new KyselyDetectionStateRepository(db, runner);
    this.alerts = new KyselyAlertRepository(db, runner);
    this.syncSources = new KyselySyncSourceRepository(db, runner);
    this.lookupTables = new KyselyLookupTableRepository(db, runner);
    this.queryUsage = new KyselyQueryUsageRepository(db, runner);
    this.ingestReceipts = new KyselyIngestReceiptRepository(db, runner);
    this.leases = new KyselyLeaseRepository(db, runner);
    this.queries = new KyselyQueryRecordRepository(db, runner);
  }

  /** The Kysely instance, for store-wide work within the store module (copyStore). */
  get database(): Kysely<StoreDatabase> {
    return this.db;
  }

  migrate(): Promise<void> {
    return migrateStore(this.db, this.options.schema === undefined ? {} : { schema: this.options.schema });
  }

  /** Closes the connection; later calls return the same promise. */
  close(): Promise<void> {
    this.closed ??= this.db.destroy();
    return this.closed;
  }
}

import { NotFoundError, newId, type Clock, type Logger, type SecretBox } from '../core/index.js';
import { EventSinkArgsChecker, WorkLeases, type DetectionMetrics } from '../detections/index.js';
import type { Engine } from '../engine/index.js';
import { SearchService, defaultSearchSettings, type IndexInfo, type SearchSettings } from '../search/index.js';
import type { Store } from '../store/index.js';
import { AlertService } from './alert-service.js';
import { AuditTrail } from './audit-trail.js';
import { ChatIntegrationService } from './chat-integration-service.js';
import { DetectionEngine, defaultDetectionEngineSettings, type DetectionEngineSettings } from './detection-engine.js';
import { DetectionRuleService } from './detection-rule-service.js';
import { EventSinkService } from './event-sink-service.js';
import { IndexService } from './index-service.js';
import { IngestService, type IngestServiceSettings } from './ingest-service.js';
import { KeyService } from './key-service.js';
import { Maintenance } from './maintenance.js';
import { QueryCapacityService } from './query-capacity.js';
import { LookupTableService } from './lookup-table-service.js';
import { RepositorySync } from './repository-sync.js';
import { IndexInsights } from './index-insights.js';
import { StoreQueryRecords } from './store-query-records.js';
import { RuleFileService } from './rule-file-service.js';
import { RulePreviewService } from './rule-preview-service.js';
import { deploymentSinkResolver } from './sink-resolver.js';
import { SinkTester } from './sink-tester.js';
import { RuleTestRunner } from './rule-test-runner.js';
import { SyncSourceService } from './sync-source-service.js';
import { TenantService } from './tenant-service.js';

/** The service objects of one process, wired over a store and (when held) the events engine. */
export interface Services {
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly tenants: TenantService;
  readonly keys: KeyService;
  readonly indexes: IndexService;
  readonly rules: DetectionRuleService;
  readonly sinks: EventSinkService;
  readonly chatIntegrations: ChatIntegrationService;
  readonly alerts: AlertService;
  /** The repositories tenants sync rules from (their sink-key maps); uploads need `repositorySync`. */
  readonly syncSources: SyncSourceService;
  /** Rule files: check, test (with the events engine only) and upsert by push_key. */
  readonly ruleFiles: RuleFileService;
  /** Uploads of rule repositories (`POST /v1/upload_git_repo_zipball`); present only with the events engine, which runs their tests. */
  readonly repositorySync: RepositorySync | null;
  /** Present only in a process that holds the events engine. */
  readonly ingest: IngestService | null;
  readonly maintenance: Maintenance | null;
  /** Ad hoc queries; present only in a process that holds the events engine. */
  readonly search: SearchService | null;
  /** Bytes the tenants' ad hoc queries scanned, as the published query capacity report. */
  readonly queryCapacity: QueryCapacityService;
  /** Uploaded CSV tables queries enrich rows with (`| lookup`); written only with the events engine. */
  readonly lookupTables: LookupTableService;
  /** The rule scheduler and delivery worker (started by `vigil serve`); present only with the events engine. */
  readonly detections: DetectionEngine | null;
  /** Test alerts to a sink, sent as real alerts are. */
  readonly sinkTests: SinkTester;
  /** Index statistics and fields; present only with the events engine. */
  readonly insights: IndexInsights | null;
  /** Rule preview over history; present only with the events engine. */
  readonly previews: RulePreviewService | null;
}

/** Wires the services; pass an engine only in the process that owns it. */
export function createServices(deps: {
  store: Store;
  engine: Engine | null;
  clock: Clock;
  logger: Logger;
  ingest: IngestServiceSettings;
  search?: SearchSettings;
  /** Seals the secrets of sinks and chat integrations. */
  secrets: SecretBox;
  /** The operator's `allow_private_destinations`. */
  allowPrivateDestinations: boolean;
  detections?: DetectionEngineSettings;
  detectionMetrics?: DetectionMetrics;
  /** This process's name among the processes of the store (lease holder, query owner). */
  instanceId?: string;
  /**
   * Other servers may share the store (docs/scale-out.md): ad hoc queries are recorded in it so
   * any server answers for them, and maintenance runs under a lease.
   */
  sharedStore?: boolean;
}): Services {
  const { store, engine, clock, logger } = deps;
  const audit = new AuditTrail(store, clock);
  const tenants = new TenantService(store, clock);
  const keys = new KeyService(store, tenants, audit, clock);
  const indexes = new IndexService(store, tenants, audit, clock);
  const sinkArgs = new EventSinkArgsChecker({ allowPrivateDestinations: deps.allowPrivateDestinations });
  const sinks = new EventSinkService(store, tenants, audit, clock, deps.secrets, sinkArgs);
  const chatIntegrations = new ChatIntegrationService(store, tenants, audit, clock, deps.secrets, sinkArgs);
  const lookupTables = new LookupTableService(store, tenants, engine, audit, clock);
  const rules = new DetectionRuleService(store, tenants, indexes, audit, clock, (tenant) => lookupTables.queryable(tenant));
  // Rule tests write scratch tenants into this process's engine and delete them afterwards.
  const ruleTests = engine ? new RuleTestRunner(engine, clock, logger.child({ component: 'rule-tests' })) : null;
  const syncSources = new SyncSourceService(store, tenants, audit, clock);
  const ruleFiles = new RuleFileService(store, indexes, rules, ruleTests);
  const queryCapacity = new QueryCapacityService(store, clock);
  const searchLogger = logger.child({ component: 'search' });
  const recordUsage = (tenant: string, bytes: number): void =>
    void queryCapacity.record(tenant, bytes).catch((error: unknown) => searchLogger.warn({ err: error }, 'recording query usage failed'));
  const instanceId = deps.instanceId ?? newId();
  const shared = deps.sharedStore === true;
  const search = engine
    ? new SearchService(
        engine,
        async (tenant) => searchableIndexes(store, indexes, tenant),
        clock,
        searchLogger,
        deps.search ?? defaultSearchSettings,
        { onRunDone: recordUsage, lookupTablesOf: (tenant) => lookupTables.queryable(tenant) },
        shared ? new StoreQueryRecords(store, instanceId) : null,
      )
    : null;
  // Every write of events in this process tells search, whose field catalog cache depends on it.
  const writingEvents = (tenant: string): (() => void) => search?.writingEvents(tenant) ?? (() => {});
  const detectionSettings = deps.detections ?? defaultDetectionEngineSettings;
  const sinkWiring = { store, clock, sinks, chatIntegrations, allowPrivateDestinations: deps.allowPrivateDestinations };
  return {
    store,
    audit,
    tenants,
    keys,
    indexes,
    rules,
    sinks,
    chatIntegrations,
    alerts: new AlertService(store, audit, clock),
    syncSources,
    ruleFiles,
    repositorySync: ruleTests ? new RepositorySync(store, syncSources, ruleFiles, clock) : null,
    ingest: engine ? new IngestService(store, engine, indexes, audit, clock, deps.ingest, writingEvents) : null,
    maintenance: engine
      ? new Maintenance(store, engine, tenants, clock, logger.child({ component: 'maintenance' }), {
          writingEvents,
          ...(ruleTests ? { sweepRuleTestLeftovers: () => ruleTests.sweepLeftovers() } : {}),
          ...(shared ? { leases: new WorkLeases(store.leases, instanceId, clock) } : {}),
        })
      : null,
    search,
    queryCapacity,
    lookupTables,
    detections:
      engine && search
        ? new DetectionEngine(
            {
              store,
              engine,
              search,
              clock,
              logger,
              tenants,
              indexes,
              sinks,
              chatIntegrations,
              allowPrivateDestinations: deps.allowPrivateDestinations,
              ...(deps.detectionMetrics ? { metrics: deps.detectionMetrics } : {}),
            },
            detectionSettings,
          )
        : null,
    sinkTests: new SinkTester(sinks, deploymentSinkResolver(sinkWiring, detectionSettings), audit, clock),
    insights: engine ? new IndexInsights(engine) : null,
    previews: search ? new RulePreviewService(store, indexes, ruleFiles, search, clock, detectionSettings.scheduler.maxRows) : null,
  };
}

/**
 * The query analyzer's view of a tenant's indexes (D18: system indexes are read only when named).
 * Every tenant has its system indexes, so none at all means no such tenant: a key holding every
 * tenant that names a mistyped one gets 404 rather than an empty result that looks like an answer.
 */
async function searchableIndexes(store: Store, indexes: IndexService, tenant: string): Promise<IndexInfo[]> {
  const records = await indexes.searchable(tenant);
  if (records.length === 0 && !(await store.tenants.get(tenant))) throw new NotFoundError(`tenant ${JSON.stringify(tenant)} not found`, { field: 'tenant_id' });
  return records.map((record) => ({ id: record.id, name: record.name, system: record.kind === 'system' }));
}

/**
 * services: the use cases the API and the CLI share — tenants, keys, indexes, ingestion, rules,
 * sinks, chat integrations, alerts, lookup tables, rule files and repository syncs, previews, the
 * detection engine's wiring, the audit trail and maintenance. Imports core, domain, engine, store,
 * ingest, search and detections (doors only); never a concrete adapter.
 */
export { type Actor, cliActor, describeActor } from './actor.js';
export { checkTenantId, checkIndexName } from './names.js';
export { AuditTrail } from './audit-trail.js';
export { TenantService, defaultTenantName, systemIndexNames, type SystemIndexName } from './tenant-service.js';
export { KeyService, allTenants, apiKeyPrefix, hashApiKey, keyHoldsTenant, type CreatedKey } from './key-service.js';
export { IndexService, checkSourceType, maxIndexPageSize, type CreateIndexInput, type IndexSettingsInput } from './index-service.js';
export { IngestService, type IngestOutcome, type IngestRequest, type IngestServiceSettings } from './ingest-service.js';
export { Maintenance } from './maintenance.js';
export { DetectionRuleService, maxRulePageSize } from './detection-rule-service.js';
export { EventSinkService, maxSinkPageSize, type EventSinkInput } from './event-sink-service.js';
export { ChatIntegrationService, type AddChatIntegrationInput } from './chat-integration-service.js';
export { AlertService, maxAlertPageSize, type AlertDetail } from './alert-service.js';
export { DetectionEngine, defaultDetectionEngineSettings, type DetectionEngineDeps, type DetectionEngineSettings } from './detection-engine.js';
export { SyncSourceService, maxSyncSourcePageSize, type SinkKeysInput, type SyncSourceInput } from './sync-source-service.js';
export { RepositorySync, type RepositorySyncResult, type RepositoryUpload, type SyncAction, type SyncFileResult } from './repository-sync.js';
export {
  RuleFileChecks,
  RuleFileService,
  type RuleFileChecker,
  type RuleFileInput,
  type RuleFileReport,
  type RuleFileStatus,
  type RuleFileResult,
  type TenantIndexes,
  type UpsertResult,
} from './rule-file-service.js';
export { RuleTestRunner, ruleTestLimits, scratchTenantPrefix, type RuleTestResult, type RuleTestRunnerOptions } from './rule-test-runner.js';
export { resolveSinkKeys, type UnresolvedSinkKey } from './sink-key-resolver.js';
export { createServices, type Services } from './create-services.js';
export { IndexInsights, type IndexFields } from './index-insights.js';
export { RulePreviewService, previewLimits, type PreviewRequest, type PreviewRuleInput } from './rule-preview-service.js';
export { SinkTester, testAlert, testAlertRuleId } from './sink-tester.js';
export { QueryCapacityService, type QueryCapacity } from './query-capacity.js';
export { LookupTableService, checkLookupTableName, maxLookupTablePageSize } from './lookup-table-service.js';
export { lookupCsvLimits, readLookupCsv } from './lookup-csv.js';

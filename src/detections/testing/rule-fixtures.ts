import { parseQueryOrThrow, rowIdentityPlan, type RowIdentityPlan } from '../../query/index.js';
import type { DetectionRuleRecord } from '../../store/index.js';

/** A rule record with sensible defaults, for detection tests that do not go through the API. */
export function ruleRecord(overrides: Partial<DetectionRuleRecord> = {}): DetectionRuleRecord {
  return {
    id: 'rule-1',
    tenantId: 'acme',
    name: 'Console login without MFA',
    description: 'A user logged in to the console without MFA.',
    queryText: 'eventName: ConsoleLogin',
    preparedQueryId: 'pq-1',
    timeRangeS: 300,
    runFrequencyS: 60,
    debounce: true,
    alertPerRow: false,
    dedupWindowS: null,
    enabledStateOverride: 'Active',
    enabledStateSynced: null,
    severity: 'High',
    alertTemplate: null,
    tags: ['source.cloudtrail'],
    syncKey: null,
    detectionRuleSyncId: null,
    authorUserId: null,
    eventSinkIds: [],
    createdAt: 0,
    updatedAt: 0,
    lastAlertedAt: null,
    ...overrides,
  };
}

/** What the compiler says identifies the rows of a query's result (detections.md E5). */
export function identityOf(queryText: string): RowIdentityPlan {
  return rowIdentityPlan(parseQueryOrThrow(queryText).pipeline);
}

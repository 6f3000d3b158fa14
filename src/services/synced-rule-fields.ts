import { ValidationError } from '../core/index.js';
import { checkRuleFields, ruleInputOf, type RuleDefinition } from '../detections/index.js';
import type { SyncSourceRecord } from '../store/index.js';
import type { SyncedRuleFields } from './sync-plan.js';

/**
 * The rule a checked rule file defines in a source: the file's fields checked as the API checks
 * them, its `enabled` as the synced state (the user's override stays the user's), and its
 * `event_sink_keys` resolved through the source's map, each key to its sinks in order, a sink
 * named by several keys once. ValidationError for a key the map lacks, or fields the API refuses.
 */
export function syncedRuleFieldsOf(definition: RuleDefinition, source: SyncSourceRecord): SyncedRuleFields {
  const unmapped = definition.eventSinkKeys.filter((key) => !Object.hasOwn(source.sinkKeys, key));
  if (unmapped.length > 0) {
    throw new ValidationError(
      `event_sink_keys ${unmapped.map((k) => JSON.stringify(k)).join(', ')} ${unmapped.length === 1 ? 'is' : 'are'} not mapped to any sink by sync source ${JSON.stringify(source.pushKey)} (branch ${JSON.stringify(source.branch)}); map ${unmapped.length === 1 ? 'it' : 'them'} with: vigil sync-sources update ${source.id} --sink-key KEY=SINK_ID`,
      { field: 'event_sink_keys' },
    );
  }
  const sinkIds = [...new Set(definition.eventSinkKeys.flatMap((key) => source.sinkKeys[key] ?? []))];
  const checked = checkRuleFields(ruleInputOf(definition, sinkIds));
  return {
    name: checked.name ?? definition.name,
    description: checked.description ?? definition.description,
    queryText: checked.queryText ?? definition.queryText,
    timeRangeS: checked.timeRangeS ?? definition.timeRangeS,
    runFrequencyS: checked.runFrequencyS ?? definition.runFrequencyS,
    debounce: checked.debounce ?? definition.debounce,
    alertPerRow: checked.alertPerRow ?? definition.alertPerRow,
    dedupWindowS: checked.dedupWindowS === undefined ? definition.dedupWindowS : checked.dedupWindowS,
    enabledStateSynced: definition.enabled,
    severity: checked.severity ?? definition.severity,
    alertTemplate: checked.alertTemplate === undefined ? definition.alertTemplate : checked.alertTemplate,
    tags: checked.tags ?? definition.tags,
    eventSinkIds: checked.eventSinkIds ?? sinkIds,
  };
}

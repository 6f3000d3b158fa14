import type { AlertTemplateRecord, EnabledState, Severity } from '../../domain/index.js';
import type { RuleFieldsInput } from '../rule-input.js';
import type { RuleDefinition, RuleTestDefinition } from './rule-definition.js';

/**
 * The fields of the API rule object (docs/interface.md 2.3) that a definition carries, as the API spells
 * them. A definition's tests and sink keys have no place in it: tests travel beside it, and sink
 * keys become sink ids through the tenant's key map.
 */
export interface RuleApiFields {
  readonly name: string;
  readonly description: string;
  readonly query_text: string;
  readonly time_range_s: number;
  readonly run_frequency_s: number;
  readonly debounce: boolean;
  readonly alert_per_row: boolean;
  readonly dedup_window_s: number | null;
  readonly enabled_state_override: EnabledState | null;
  /** Present on rules read back from the API; a synced rule's state when it has no override. */
  readonly enabled_state_synced?: EnabledState | null;
  readonly severity: Severity;
  readonly alert_template: {
    readonly info: readonly { readonly label: string; readonly value: string; readonly use_for_dedup: boolean }[];
    readonly actions: readonly { readonly label: string; readonly value: string }[];
  } | null;
  readonly tags: readonly string[];
  readonly sync_key: string | null;
  readonly event_sink_ids?: readonly string[];
}

/** A definition as the API object's fields (file → API object), with the sinks its keys resolved to. */
export function apiFieldsOf(definition: RuleDefinition, eventSinkIds: readonly string[]): RuleApiFields {
  const d = definition;
  return {
    name: d.name,
    description: d.description,
    query_text: d.queryText,
    time_range_s: d.timeRangeS,
    run_frequency_s: d.runFrequencyS,
    debounce: d.debounce,
    alert_per_row: d.alertPerRow,
    dedup_window_s: d.dedupWindowS,
    enabled_state_override: d.enabled,
    severity: d.severity,
    alert_template: apiTemplateOf(d.alertTemplate),
    tags: [...d.tags],
    sync_key: d.pushKey,
    event_sink_ids: [...eventSinkIds],
  };
}

/**
 * An API rule object back as a definition (API object → file). The state is the override, else
 * the synced state. The object has no tests and no sink keys: give them, or they are empty.
 */
export function definitionOfApiFields(
  object: RuleApiFields,
  extras: { readonly eventSinkKeys?: readonly string[]; readonly tests?: readonly RuleTestDefinition[] } = {},
): RuleDefinition {
  return {
    name: object.name,
    description: object.description,
    queryText: object.query_text,
    runFrequencyS: object.run_frequency_s,
    timeRangeS: object.time_range_s,
    alertPerRow: object.alert_per_row,
    alertTemplate:
      object.alert_template === null
        ? null
        : {
            info: object.alert_template.info.map((i) => ({ label: i.label, value: i.value, useForDedup: i.use_for_dedup })),
            actions: object.alert_template.actions.map((a) => ({ label: a.label, value: a.value })),
          },
    debounce: object.debounce,
    dedupWindowS: object.dedup_window_s,
    enabled: object.enabled_state_override ?? object.enabled_state_synced ?? null,
    eventSinkKeys: [...(extras.eventSinkKeys ?? [])],
    pushKey: object.sync_key,
    severity: object.severity,
    tags: [...object.tags],
    tests: [...(extras.tests ?? [])],
  };
}

/**
 * A checked definition as the rule service's input (every field given): `enabled` becomes
 * `enabledStateOverride` and `push_key` the `syncKey`. A repository sync that keeps the state as
 * the synced one and its own key overrides those two. Stable: the sync helper relies on it.
 */
export function ruleInputOf(definition: RuleDefinition, eventSinkIds: readonly string[]): RuleFieldsInput {
  const d = definition;
  return {
    name: d.name,
    description: d.description,
    queryText: d.queryText,
    timeRangeS: d.timeRangeS,
    runFrequencyS: d.runFrequencyS,
    debounce: d.debounce,
    alertPerRow: d.alertPerRow,
    dedupWindowS: d.dedupWindowS,
    enabledStateOverride: d.enabled,
    severity: d.severity,
    alertTemplate: apiTemplateOf(d.alertTemplate),
    tags: [...d.tags],
    syncKey: d.pushKey,
    eventSinkIds: [...eventSinkIds],
  };
}

/** A template in the API's current form (`use_for_dedup`). */
function apiTemplateOf(template: AlertTemplateRecord | null): RuleApiFields['alert_template'] {
  if (template === null) return null;
  return {
    info: template.info.map((i) => ({ label: i.label, value: i.value, use_for_dedup: i.useForDedup })),
    actions: template.actions.map((a) => ({ label: a.label, value: a.value })),
  };
}

import { ValidationError, hasControlCharacters } from '../core/index.js';
import type { AlertTemplateRecord, EnabledState, Severity } from '../domain/index.js';
import type { DetectionRuleChanges } from '../store/index.js';
import { normalizeAlertTemplate, type AlertTemplateInput } from './alert-template.js';
import { enabledStates } from './enabled-state.js';
import { normalizeSeverity } from './severity.js';

/**
 * The fields of a rule as a client gives them (docs/interface.md 4.2, plus `debounce` and `dedup_window_s`
 * of 2.3/2.5). Undefined means "not given"; null clears the fields that may be null.
 */
export interface RuleFieldsInput {
  readonly name?: string;
  readonly description?: string;
  readonly queryText?: string;
  readonly timeRangeS?: number;
  readonly runFrequencyS?: number;
  readonly debounce?: boolean;
  readonly alertPerRow?: boolean;
  readonly dedupWindowS?: number | null;
  readonly enabledStateOverride?: EnabledState | null;
  /** A severity name or the alias `Information`. */
  readonly severity?: string;
  readonly alertTemplate?: AlertTemplateInput | null;
  readonly tags?: readonly string[];
  readonly syncKey?: string | null;
  readonly eventSinkIds?: readonly string[];
}

/** The fields a create request must give (docs/interface.md 4.2). */
const requiredRuleFields = ['name', 'description', 'timeRangeS', 'runFrequencyS', 'enabledStateOverride', 'severity', 'queryText', 'eventSinkIds'] as const;

/** Checked fields, ready for the store: only those given, the others absent. */
export type CheckedRuleFields = Omit<DetectionRuleChanges, 'preparedQueryId' | 'enabledStateSynced'>;

export const ruleLimits = {
  name: 256,
  description: 10_000,
  /** 30 days: far beyond any useful lookback, small enough that a window stays one query. */
  maxTimeRangeS: 30 * 86_400,
  maxDedupWindowS: 4_294_967_295,
  tags: 100,
  tag: 128,
  syncKey: 512,
  eventSinks: 50,
} as const;

/** The API name of each input field, for error messages. */
export const ruleFieldNames: Readonly<Record<keyof RuleFieldsInput, string>> = {
  name: 'name',
  description: 'description',
  queryText: 'query_text',
  timeRangeS: 'time_range_s',
  runFrequencyS: 'run_frequency_s',
  debounce: 'debounce',
  alertPerRow: 'alert_per_row',
  dedupWindowS: 'dedup_window_s',
  enabledStateOverride: 'enabled_state_override',
  severity: 'severity',
  alertTemplate: 'alert_template',
  tags: 'tags',
  syncKey: 'sync_key',
  eventSinkIds: 'event_sink_ids',
};

/**
 * Checks the given fields of a rule that need nothing but the input itself (the query and the
 * sinks need the tenant's indexes and sinks: the service checks those). `current` holds the
 * schedule of the rule being updated, so the frequency is compared with the range the rule will
 * have. ValidationError naming the first field at fault.
 */
export function checkRuleFields(input: RuleFieldsInput, current?: { readonly timeRangeS: number; readonly runFrequencyS: number }): CheckedRuleFields {
  const out: { -readonly [K in keyof CheckedRuleFields]: CheckedRuleFields[K] } = {};
  if (input.name !== undefined) out.name = checkText(input.name, 'name', ruleLimits.name, 'one line');
  if (input.description !== undefined) out.description = checkText(input.description, 'description', ruleLimits.description, 'multi-line');
  if (input.queryText !== undefined) out.queryText = input.queryText;
  if (input.timeRangeS !== undefined) out.timeRangeS = checkMinutes(input.timeRangeS, 'time_range_s');
  if (input.runFrequencyS !== undefined) out.runFrequencyS = checkMinutes(input.runFrequencyS, 'run_frequency_s');
  const range = out.timeRangeS ?? current?.timeRangeS;
  const frequency = out.runFrequencyS ?? current?.runFrequencyS;
  if (range !== undefined && frequency !== undefined && frequency > range) {
    // Name the field this request gave, first in the text too; when it gave both, the frequency
    // is the one bound by the other.
    if (out.runFrequencyS === undefined) {
      throw new ValidationError(`time_range_s (${range}) must be at least run_frequency_s (${frequency})`, { field: 'time_range_s' });
    }
    throw new ValidationError(`run_frequency_s (${frequency}) must be at most time_range_s (${range})`, { field: 'run_frequency_s' });
  }
  if (input.debounce !== undefined) out.debounce = checkBoolean(input.debounce, 'debounce');
  if (input.alertPerRow !== undefined) out.alertPerRow = checkBoolean(input.alertPerRow, 'alert_per_row');
  if (input.dedupWindowS !== undefined) out.dedupWindowS = checkDedupWindow(input.dedupWindowS);
  if (input.enabledStateOverride !== undefined) out.enabledStateOverride = checkState(input.enabledStateOverride);
  if (input.severity !== undefined) out.severity = checkSeverity(input.severity);
  if (input.alertTemplate !== undefined) out.alertTemplate = checkTemplate(input.alertTemplate);
  if (input.tags !== undefined) out.tags = checkTags(input.tags);
  if (input.syncKey !== undefined) out.syncKey = input.syncKey === null ? null : checkText(input.syncKey, 'sync_key', ruleLimits.syncKey, 'one line');
  if (input.eventSinkIds !== undefined) out.eventSinkIds = checkSinkIds(input.eventSinkIds);
  return out;
}

/** ValidationError for the first required create field that is missing. */
export function checkRequiredRuleFields(input: RuleFieldsInput): void {
  for (const key of requiredRuleFields) {
    if (input[key] === undefined || input[key] === null) {
      const field = ruleFieldNames[key];
      throw new ValidationError(`missing required field ${field}`, { field });
    }
  }
}

/** A text field; only the description may be empty or hold several lines. */
function checkText(value: unknown, field: string, max: number, kind: 'one line' | 'multi-line'): string {
  if (typeof value !== 'string') throw new ValidationError(`${field} must be a string`, { field });
  if (kind === 'one line' && value.trim() === '') throw new ValidationError(`${field} must not be empty`, { field });
  if (value.length > max) throw new ValidationError(`${field} must be at most ${max} characters`, { field });
  if (hasControlCharacters(value, { multiLine: kind === 'multi-line' })) {
    throw new ValidationError(`${field} must not contain control characters${kind === 'one line' ? ' (tabs and line breaks included)' : ''}`, { field });
  }
  return value;
}

/** Whole minutes from 60 s to 30 days (docs/interface.md 2.3 and 8). */
function checkMinutes(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 60 || value % 60 !== 0 || value > ruleLimits.maxTimeRangeS) {
    throw new ValidationError(`${field} must be a whole number of minutes in seconds, from 60 to ${ruleLimits.maxTimeRangeS}, got ${String(value)}`, { field });
  }
  return value;
}

function checkBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new ValidationError(`${field} must be true or false`, { field });
  return value;
}

function checkDedupWindow(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > ruleLimits.maxDedupWindowS) {
    throw new ValidationError(`dedup_window_s must be a whole number of seconds from 0 to ${ruleLimits.maxDedupWindowS}, or null for the run frequency`, {
      field: 'dedup_window_s',
    });
  }
  return value;
}

function checkState(value: unknown): EnabledState | null {
  if (value === null) return null;
  if (typeof value !== 'string' || !(enabledStates as readonly string[]).includes(value)) {
    throw new ValidationError(`enabled_state_override must be one of ${enabledStates.join(', ')}`, { field: 'enabled_state_override' });
  }
  return value as EnabledState;
}

function checkSeverity(value: unknown): Severity {
  if (typeof value !== 'string') throw new ValidationError('severity must be a string', { field: 'severity' });
  return normalizeSeverity(value);
}

function checkTemplate(value: AlertTemplateInput | null): AlertTemplateRecord | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ValidationError('alert_template must be an object or null', { field: 'alert_template' });
  return normalizeAlertTemplate(value);
}

function checkTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) throw new ValidationError('tags must be an array of strings', { field: 'tags' });
  if (tags.length > ruleLimits.tags) throw new ValidationError(`tags must have at most ${ruleLimits.tags} items`, { field: 'tags' });
  return tags.map((tag: unknown, i) => checkText(tag, `tags[${i}]`, ruleLimits.tag, 'one line'));
}

/** Sink ids as given, a repeated id kept once where it first appears. */
function checkSinkIds(ids: unknown): string[] {
  if (!Array.isArray(ids)) throw new ValidationError('event_sink_ids must be an array of strings', { field: 'event_sink_ids' });
  const unique = [...new Set(ids.map((id: unknown, i) => checkText(id, `event_sink_ids[${i}]`, 200, 'one line')))];
  if (unique.length > ruleLimits.eventSinks) throw new ValidationError(`event_sink_ids must name at most ${ruleLimits.eventSinks} sinks`, { field: 'event_sink_ids' });
  return unique;
}

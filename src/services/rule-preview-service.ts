import { NotFoundError, ValidationError, VigilError, newId, type Clock } from '../core/index.js';
import {
  checkRuleFields,
  checkRuleQuery,
  countPreviewWindows,
  maxPreviewWindows,
  previewRule,
  previewWindows,
  ruleInputOf,
  type PreviewWindowResult,
  type RuleFieldsInput,
  type RulePreview,
} from '../detections/index.js';
import { checkRange, type SearchService } from '../search/index.js';
import type { DetectionRuleRecord, Store } from '../store/index.js';
import type { IndexService } from './index-service.js';
import type { RuleFileService } from './rule-file-service.js';

/** Which rule to preview: a stored one, unsaved fields, or a rule file's text (exactly one). */
export interface PreviewRuleInput {
  readonly ruleId?: string;
  readonly rule?: Pick<RuleFieldsInput, 'queryText' | 'timeRangeS' | 'runFrequencyS' | 'alertPerRow' | 'debounce' | 'dedupWindowS' | 'alertTemplate'>;
  readonly ruleYaml?: string;
}

export interface PreviewRequest extends PreviewRuleInput {
  readonly startTime: string;
  readonly endTime: string;
  /** Alerting windows listed at most (default and maximum `previewLimits.maxListed`). */
  readonly maxWindows?: number;
}

export const previewLimits = { maxListed: 500, maxWindows: maxPreviewWindows } as const;

/**
 * Rule preview over history (`POST /v1/detection_rule_preview`, `vigil rules preview`): the rule's
 * windows over a past range evaluated as the scheduler would evaluate an Active rule's, read
 * through search's rule windows, under the ad hoc queries' limits. Nothing is written: no
 * alert, detection, cursor, debounce or dedup memory of the rule changes, and nothing is sent.
 */
export class RulePreviewService {
  constructor(
    private readonly store: Store,
    private readonly indexes: IndexService,
    private readonly ruleFiles: RuleFileService,
    private readonly search: SearchService,
    private readonly clock: Clock,
    /** Raw events a window reads at most: the scheduler's `detection_max_rows`. */
    private readonly maxRows: number,
  ) {}

  async preview(tenantId: string, request: PreviewRequest, signal?: AbortSignal): Promise<RulePreview> {
    const maxListed = request.maxWindows ?? previewLimits.maxListed;
    if (!Number.isInteger(maxListed) || maxListed < 1 || maxListed > previewLimits.maxListed) {
      throw new ValidationError(`must be an integer from 1 to ${previewLimits.maxListed}`, { field: 'max_windows' });
    }
    const range = checkRange(request.startTime, request.endTime);
    const rule = await this.ruleOf(tenantId, request);
    // Windows end no later than now: a later one would see only part of its events.
    const fromMs = nsToMs(range.startNs);
    const toMs = Math.min(nsToMs(range.endNs), this.clock.nowMs());
    const count = countPreviewWindows(rule, fromMs, toMs);
    if (count > previewLimits.maxWindows) {
      throw new ValidationError(`the range holds ${count} windows of this rule, more than ${previewLimits.maxWindows}: narrow it`, { field: 'start_time' });
    }
    const windows = previewWindows(rule, fromMs, toMs);
    return this.search.blockingWork(
      tenantId,
      (workSignal) => previewRule(rule, this.results(tenantId, rule.queryText, windows, workSignal), { clock: this.clock, newId, maxRows: this.maxRows, maxListed }),
      signal,
    );
  }

  private async *results(tenantId: string, text: string, windows: PreviewWindowResult['window'][], signal: AbortSignal): AsyncGenerator<PreviewWindowResult> {
    for await (const { window, rows } of this.search.windows.ruleWindows(tenantId, text, windows, this.maxRows, signal)) yield { window, result: rows };
  }

  /** The rule a request names, checked as a rule of the tenant would be. */
  private async ruleOf(tenantId: string, input: PreviewRuleInput): Promise<DetectionRuleRecord> {
    const given = [input.ruleId !== undefined, input.rule !== undefined, input.ruleYaml !== undefined].filter(Boolean).length;
    if (given !== 1) throw new ValidationError('give exactly one of rule_id, rule and rule_yaml', { field: given === 0 ? 'rule_id' : 'rule' });
    if (input.ruleId !== undefined) {
      const stored = await this.store.rules.get(tenantId, input.ruleId);
      if (stored === null) throw new NotFoundError(`detection rule ${JSON.stringify(input.ruleId)} not found`);
      return stored;
    }
    const fields: RuleFieldsInput = input.ruleYaml !== undefined ? ruleInputOf(await this.ruleFiles.definitionOf(input.ruleYaml, tenantId), []) : (input.rule as RuleFieldsInput);
    const prefix = input.ruleYaml !== undefined ? 'rule_yaml' : 'rule';
    const checked = withFieldPrefix(prefix, () => checkRuleFields(fields));
    const indexes = (await this.indexes.searchable(tenantId)).map((i) => ({ id: i.id, name: i.name, system: i.kind === 'system' }));
    withFieldPrefix(prefix, () => checkRuleQuery(checked.queryText ?? '', indexes));
    if (checked.timeRangeS === undefined || checked.runFrequencyS === undefined) {
      throw new ValidationError('a rule needs time_range_s and run_frequency_s', { field: `${prefix}.${checked.timeRangeS === undefined ? 'time_range_s' : 'run_frequency_s'}` });
    }
    const name = input.ruleYaml !== undefined && fields.name ? fields.name : 'Rule preview';
    return {
      id: 'preview',
      tenantId,
      name,
      description: fields.description ?? '',
      queryText: checked.queryText ?? '',
      preparedQueryId: 'preview',
      timeRangeS: checked.timeRangeS,
      runFrequencyS: checked.runFrequencyS,
      debounce: checked.debounce ?? true,
      alertPerRow: checked.alertPerRow ?? false,
      dedupWindowS: checked.dedupWindowS ?? null,
      enabledStateOverride: 'Active',
      enabledStateSynced: null,
      severity: checked.severity ?? 'Unknown',
      alertTemplate: checked.alertTemplate ?? null,
      tags: checked.tags ?? [],
      syncKey: null,
      detectionRuleSyncId: null,
      authorUserId: null,
      eventSinkIds: [],
      createdAt: 0,
      updatedAt: 0,
      lastAlertedAt: null,
    };
  }
}

/** Runs a check whose errors name fields of the rule, naming them inside `prefix` instead (`rule.time_range_s`). */
function withFieldPrefix<T>(prefix: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof VigilError) || error.field === undefined) throw error;
    throw new ValidationError(error.message, { field: `${prefix}.${error.field}`, diagnostics: error.diagnostics, ...(error.span ? { span: error.span } : {}) });
  }
}

function nsToMs(ns: bigint): number {
  return Number(ns / 1_000_000n);
}

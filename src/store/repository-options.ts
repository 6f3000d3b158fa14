import type { DetectionRuleRecord } from './records.js';

/** Options and change sets the repositories share (kept apart from store.ts so repository files can import them without a cycle). */

export interface PageOptions {
  readonly pageSize: number;
  /** A token from a previous page; malformed tokens raise ValidationError on `pagination[page_token]`. */
  readonly pageToken?: string;
}

/** The fields of a rule that change after creation. */
export type DetectionRuleChanges = Partial<
  Pick<
    DetectionRuleRecord,
    | 'name'
    | 'description'
    | 'queryText'
    | 'preparedQueryId'
    | 'timeRangeS'
    | 'runFrequencyS'
    | 'debounce'
    | 'alertPerRow'
    | 'dedupWindowS'
    | 'enabledStateOverride'
    | 'enabledStateSynced'
    | 'severity'
    | 'alertTemplate'
    | 'tags'
    | 'syncKey'
    | 'eventSinkIds'
  >
>;

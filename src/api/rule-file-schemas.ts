import { Type, type Static } from '@sinclair/typebox';
import { DetectionRuleObject } from './detection-schemas.js';

/**
 * JSON schemas of the rule-file endpoints (`/v1/detection_rule_yaml*`, detections.md 4.2). The
 * request bodies are YAML text, so only queries and responses have schemas here.
 */

const nullableString = (description?: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], ...(description ? { description } : {}) });

/** One problem of a rule file with its position (1-based line and column). */
export const FileDiagnostic = Type.Object({
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
  message: Type.String(),
  field: Type.Optional(Type.String({ description: 'The field at fault, dotted: tests[1].dataset_inline' })),
  line: Type.Integer(),
  column: Type.Integer(),
  end_line: Type.Integer(),
  end_column: Type.Integer(),
});
export type FileDiagnostic = Static<typeof FileDiagnostic>;

export const ValidateQuery = Type.Object(
  { tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Also check that the query names only this tenant's indexes" })) },
  { additionalProperties: false },
);
export type ValidateQuery = Static<typeof ValidateQuery>;

export const ValidateResponse = Type.Object({
  is_valid: Type.Boolean(),
  error: nullableString('Every error, one per line, each ending with its line:column; null when valid'),
  warning: nullableString('Every warning (unknown fields), one per line; null when none'),
  diagnostics: Type.Array(FileDiagnostic),
});

export const RuleTestResultObject = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('Passed'), Type.Literal('Failed')]),
  expected_detection_result: Type.Boolean(),
  detection_result: Type.Boolean({ description: 'Whether the query returned at least one row in the window' }),
  window: Type.Object({ start_time: Type.String(), end_time: Type.String({ description: 'Exclusive: now_timestamp rounded up to run_frequency_s' }) }),
  column_ordering: Type.Array(Type.String()),
  rows: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'The first rows the query returned in the window' }),
  row_count: Type.Integer({ description: 'Rows returned (raw events are counted up to 100)' }),
});

export const RunTestsResponse = Type.Object({
  status: Type.Union([Type.Literal('Passed'), Type.Literal('TestsFailed')]),
  results: Type.Record(Type.String(), Type.Union([Type.Literal('Passed'), Type.Literal('Failed')]), {
    description: "Each test's name and outcome, as the published CLI reads them (a name given twice is Failed if either failed)",
  }),
  tests: Type.Array(RuleTestResultObject, { description: 'Every test in file order, with what the query returned in its window' }),
  warning: nullableString(),
});

export const UpsertQuery = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
    run_tests: Type.Optional(Type.Boolean({ description: "Run the file's tests first and refuse the rule unless they pass (default false)" })),
  },
  { additionalProperties: false },
);
export type UpsertQuery = Static<typeof UpsertQuery>;

export const UpsertResponse = Type.Object({
  detection_rule: Type.Ref(DetectionRuleObject),
  created: Type.Boolean({ description: 'True when no rule of the tenant had this push_key' }),
  warning: nullableString(),
});

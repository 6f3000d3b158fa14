import type { FastifyInstance } from 'fastify';
import { ValidationError, formatRfc3339Ns, type Diagnostic } from '../../core/index.js';
import type { RuleFileResult, RuleFileService, RuleTestResult } from '../../services/index.js';
import { actorOf, apiKeyOf, assertTenantAccess } from '../auth.js';
import { RunTestsResponse, UpsertQuery, UpsertResponse, ValidateQuery, ValidateResponse, type FileDiagnostic } from '../rule-file-schemas.js';
import { ErrorBody, errorResponses } from '../schemas.js';
import { Type } from '@sinclair/typebox';
import { toDetectionRuleObject } from './detection-rule-routes.js';
import { formatFileProblem } from '../../detections/index.js';

const yamlBody = {
  description: 'The rule file as YAML text (any Content-Type: text/yaml, application/yaml, text/plain; JSON is YAML too)',
  content: { 'text/yaml': { schema: { type: 'string' } } },
};

/**
 * `/v1/detection_rule_yaml`: check a rule file, run its tests, and upsert a rule by `push_key`
 * (detections.md 4.2, docs/interface.md 2.5). Bodies are the file's text; every problem is answered with
 * its line and column.
 */
export function registerDetectionRuleYamlRoutes(app: FastifyInstance, ruleFiles: RuleFileService): void {
  void app.register(async (scope) => {
    // The body is the file itself, whatever the client calls its type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const textOf = (body: unknown): string => (typeof body === 'string' ? body : '');

    scope.post<{ Querystring: ValidateQuery }>(
      '/v1/detection_rule_yaml/validate',
      {
        schema: {
          summary: 'Check a detection rule file (YAML)',
          tags: ['detection rule files'],
          querystring: ValidateQuery,
          response: { 200: ValidateResponse, ...errorResponses },
          ...({ requestBody: yamlBody } as object),
        },
      },
      async (request) => {
        const tenantId = request.query.tenant_id;
        if (tenantId !== undefined) assertTenantAccess(request, tenantId);
        const check = await ruleFiles.validate(textOf(request.body), tenantId);
        const lines = (severity: Diagnostic['severity']) => check.diagnostics.filter((d) => d.severity === severity).map(formatFileProblem);
        const errors = lines('error');
        const warnings = lines('warning');
        return {
          is_valid: check.definition !== null,
          error: errors.length > 0 ? errors.join('\n') : null,
          warning: warnings.length > 0 ? warnings.join('\n') : null,
          diagnostics: check.diagnostics.map(wireDiagnostic),
        };
      },
    );

    if (ruleFiles.canRunTests) {
      scope.post(
        '/v1/detection_rule_yaml/run_tests',
        {
          schema: {
            summary: 'Check a detection rule file and run its tests on the events engine',
            tags: ['detection rule files'],
            response: { 200: RunTestsResponse, ...errorResponses, 500: Type.Ref(ErrorBody) },
          },
        },
        async (request) => {
          const result = await ruleFiles.runTests(textOf(request.body), apiKeyOf(request).id);
          throwUnlessTested(result);
          const tests = result.tests ?? [];
          return {
            status: result.status as 'Passed' | 'TestsFailed',
            results: outcomesByName(tests),
            tests: tests.map(wireTestResult),
            warning: result.warning ?? null,
          };
        },
      );
    }

    scope.put<{ Querystring: UpsertQuery }>(
      '/v1/detection_rule_yaml',
      {
        schema: {
          summary: "Create or update the tenant's rule with the file's push_key",
          tags: ['detection rule files'],
          querystring: UpsertQuery,
          response: { 200: UpsertResponse, ...errorResponses, 409: Type.Ref(ErrorBody) },
        },
      },
      async (request) => {
        const { tenant_id: tenantId, run_tests: runTests } = request.query;
        assertTenantAccess(request, tenantId);
        const outcome = await ruleFiles.upsert(tenantId, textOf(request.body), actorOf(request), apiKeyOf(request).name, { runTests: runTests ?? false });
        return {
          detection_rule: toDetectionRuleObject(outcome.rule, 'full'),
          created: outcome.created,
          warning: outcome.warnings.length > 0 ? outcome.warnings.map(formatFileProblem).join('\n') : null,
        };
      },
    );
  });
}

/** Invalid files answer 400 with every problem; an engine failure is answered as one. */
function throwUnlessTested(result: RuleFileResult): void {
  if (result.status === 'Invalid') {
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    throw new ValidationError(result.error?.split('\n')[0] ?? 'invalid rule file', { diagnostics: errors });
  }
  // eslint-disable-next-line no-restricted-syntax -- the typed failure is thrown when there is one; this is its message alone
  if (result.status === 'ExecutionError') throw result.failure ?? new Error(result.error ?? 'running the tests failed');
}

function wireDiagnostic(d: Diagnostic): FileDiagnostic {
  const start = d.span?.start ?? { line: 1, column: 1 };
  const end = d.span?.end ?? start;
  return { severity: d.severity, message: d.message, ...(d.field ? { field: d.field } : {}), line: start.line, column: start.column, end_line: end.line, end_column: end.column };
}

/** The map `scanner-cli run-tests` reads: test name to Passed or Failed (a repeated name fails if any of its tests did). */
function outcomesByName(tests: readonly RuleTestResult[]): Record<string, 'Passed' | 'Failed'> {
  const outcomes = Object.create(null) as Record<string, 'Passed' | 'Failed'>; // any test name is a plain key
  for (const t of tests) outcomes[t.name] = outcomes[t.name] === 'Failed' ? 'Failed' : t.status;
  return outcomes;
}

function wireTestResult(t: RuleTestResult) {
  return {
    name: t.name,
    status: t.status,
    expected_detection_result: t.expectedDetectionResult,
    detection_result: t.detectionResult,
    window: { start_time: formatRfc3339Ns(t.window.startNs), end_time: formatRfc3339Ns(t.window.endNs) },
    column_ordering: [...t.columns],
    rows: t.rows.map((row) => ({ ...row })),
    row_count: t.rowCount,
  };
}

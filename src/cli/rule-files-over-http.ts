/**
 * `vigil rules validate|test` against a server: each file goes to `/v1/detection_rule_yaml/
 * validate` or `/run_tests`, and the answers come back as the outcomes the local checks give.
 */
import { parseRfc3339Ns } from '../core/index.js';
import type { RuleFileResult, RuleTestResult } from '../services/index.js';
import type { RuleFileOnDisk } from './rule-file-paths.js';

/** What the command prints of one file, locally or remotely. */
export type RuleFileOutcome = Pick<RuleFileResult, 'path' | 'status' | 'error' | 'warning' | 'tests'>;

export interface ServerTarget {
  readonly url: string;
  readonly apiKey: string;
}

interface WireTest {
  name: string;
  status: 'Passed' | 'Failed';
  expected_detection_result: boolean;
  detection_result: boolean;
  window: { start_time: string; end_time: string };
  column_ordering: string[];
  rows: Record<string, string | number | null>[];
  row_count: number;
}

async function post(target: ServerTarget, path: string, text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/yaml' },
    body: text,
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body };
}

/** Checks one file on the server. */
export async function validateOverHttp(target: ServerTarget, file: RuleFileOnDisk): Promise<RuleFileOutcome> {
  try {
    const { status, body } = await post(target, '/v1/detection_rule_yaml/validate', file.text);
    if (status !== 200) return failed(file, target, status, body);
    return {
      path: file.path,
      status: body.is_valid === true ? 'Valid' : 'Invalid',
      ...(typeof body.error === 'string' ? { error: body.error } : {}),
      ...(typeof body.warning === 'string' ? { warning: body.warning } : {}),
    };
  } catch (error) {
    return unreachable(file, target, error);
  }
}

/** Checks one file on the server and runs its tests there. */
export async function testOverHttp(target: ServerTarget, file: RuleFileOnDisk): Promise<RuleFileOutcome> {
  try {
    const { status, body } = await post(target, '/v1/detection_rule_yaml/run_tests', file.text);
    if (status === 400) return { path: file.path, status: 'Invalid', error: invalidText(body) };
    if (status !== 200) return failed(file, target, status, body);
    const tests = ((body.tests as WireTest[] | undefined) ?? []).map(testOf);
    return {
      path: file.path,
      status: body.status === 'Passed' ? 'Passed' : 'TestsFailed',
      tests,
      ...(typeof body.warning === 'string' ? { warning: body.warning } : {}),
    };
  } catch (error) {
    return unreachable(file, target, error);
  }
}

function testOf(t: WireTest): RuleTestResult {
  return {
    name: t.name,
    status: t.status,
    expectedDetectionResult: t.expected_detection_result,
    detectionResult: t.detection_result,
    window: { startNs: parseRfc3339Ns(t.window.start_time) ?? 0n, endNs: parseRfc3339Ns(t.window.end_time) ?? 0n },
    columns: t.column_ordering,
    rows: t.rows,
    rowCount: t.row_count,
  };
}

/** A 400's message and every located problem, one per line, as the local checks word them. */
function invalidText(body: Record<string, unknown>): string {
  const diagnostics = body.diagnostics as { message: string; line: number; column: number }[] | undefined;
  if (diagnostics && diagnostics.length > 0) return diagnostics.map((d) => `${d.message} at ${d.line}:${d.column}`).join('\n');
  return String(body.error ?? 'invalid rule file');
}

function failed(file: RuleFileOnDisk, target: ServerTarget, status: number, body: Record<string, unknown>): RuleFileOutcome {
  return { path: file.path, status: 'ExecutionError', error: `server at ${target.url} answered ${status}: ${String(body.error ?? 'no error message')}` };
}

function unreachable(file: RuleFileOnDisk, target: ServerTarget, error: unknown): RuleFileOutcome {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return { path: file.path, status: 'ExecutionError', error: `cannot reach the server at ${target.url}: ${cause ?? (error as Error).message}` };
}

import { ValidationError } from '../../core/index.js';
import type { VigilConfig } from '../../config/index.js';
import { overridesOf, type CliContext, type GlobalOptions } from '../cli-context.js';
import { printJson } from '../output.js';
import { snapshotRepository } from '../repository-snapshot.js';
import { serverApiKey } from '../server-api-key.js';

export interface RulesSyncOptions extends GlobalOptions {
  readonly pushKey: string;
  readonly branch?: string;
  readonly commitSha?: string;
  readonly commitMessage?: string;
  readonly tenant?: string;
  readonly apiUrl?: string;
  readonly apiKey?: string;
  readonly json?: boolean;
}

/** The server's answer (docs/rule-sync.md), as far as the printer reads it. */
interface SyncAnswer {
  readonly error?: string;
  readonly applied?: boolean;
  readonly sync_source?: { readonly id: string; readonly push_key: string; readonly branch: string };
  readonly files?: readonly {
    readonly file_path: string;
    readonly status: string;
    readonly action?: string;
    readonly detection_rule_id?: string;
    readonly error?: string;
    readonly warning?: string;
    readonly tests?: readonly { readonly name: string; readonly status: string }[];
  }[];
  readonly deleted?: readonly { readonly detection_rule_id: string; readonly name: string; readonly file_path: string | null }[];
  readonly ignored_files?: readonly { readonly file_path: string; readonly reason: string }[];
}

/**
 * `vigil rules sync DIR --push-key K`: zips the repository in DIR, uploads it to its sync source
 * on the server and prints each rule file's outcome. Exit 0 when the sync applied, 1 when a file
 * failed (and nothing changed) or the server refused the upload.
 */
export async function runRulesSync(ctx: CliContext, dir: string, options: RulesSyncOptions): Promise<number> {
  const config = ctx.loadConfig(overridesOf(options));
  const url = serverUrl(ctx, config, options.apiUrl);
  const apiKey = serverApiKey(config, options.apiKey);
  const snapshot = await snapshotRepository(dir, {
    ...(options.commitSha !== undefined ? { commitSha: options.commitSha } : {}),
    ...(options.commitMessage !== undefined ? { commitMessage: options.commitMessage } : {}),
    ...(options.branch !== undefined ? { branch: options.branch } : {}),
  });
  const form = new FormData();
  form.append('push_key', options.pushKey);
  form.append('branch', snapshot.branch);
  form.append('commit_sha', snapshot.commitSha);
  if (snapshot.commitMessage !== null) form.append('commit_message', snapshot.commitMessage);
  if (options.tenant !== undefined) form.append('tenant_id', options.tenant);
  form.append('file', new Blob([snapshot.zip], { type: 'application/zip' }), 'repository.zip');
  let response: Response;
  try {
    response = await fetch(`${url}/v1/upload_git_repo_zipball`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
  } catch (cause) {
    // eslint-disable-next-line no-restricted-syntax -- a network failure reaching the server, with its cause
    throw new Error(`cannot reach the server at ${url}: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`);
  }
  const answer = (await response.json().catch(() => ({}))) as SyncAnswer;
  if (options.json) {
    printJson(ctx.stdout, answer);
    return response.ok ? 0 : 1;
  }
  if (answer.files === undefined) {
    ctx.stderr.write(`vigil: the server at ${url} refused the upload (${response.status}): ${answer.error ?? response.statusText}\n`);
    return 1;
  }
  printAnswer(ctx.stdout, answer, snapshot.commitSha);
  if (!answer.applied) {
    ctx.stderr.write(`vigil: ${answer.error ?? 'nothing was applied'}\n`);
    return 1;
  }
  return 0;
}

/** `--api-url`, then VIGIL_API_URL, then the server running on the data dir. */
function serverUrl(ctx: CliContext, config: VigilConfig, given: string | undefined): string {
  const url = given ?? config.cliApiUrl ?? ctx.runningServer(config.dataDir)?.url;
  if (url === undefined) {
    throw new ValidationError(`no server to sync to: pass --api-url or set VIGIL_API_URL, or start vigil serve on the data dir ${config.dataDir}`, { field: 'api-url' });
  }
  return url.replace(/\/+$/, '');
}

function printAnswer(out: NodeJS.WritableStream, answer: SyncAnswer, commitSha: string): void {
  for (const file of answer.files ?? []) {
    const passed = file.status === 'Passed' || file.status === 'Valid';
    const outcome = passed
      ? file.action
        ? `${file.action}${file.detection_rule_id ? ` (rule ${file.detection_rule_id})` : ''}`
        : 'OK'
      : `${file.status}: ${file.error ?? ''}`.trimEnd();
    out.write(`${file.file_path}: ${outcome}\n`);
    if (file.warning) out.write(`    warning: ${file.warning}\n`);
    if (!passed) for (const test of file.tests ?? []) out.write(`    ${test.name}: ${test.status}\n`);
  }
  for (const rule of answer.deleted ?? []) out.write(`${rule.file_path ?? rule.name}: deleted (rule ${rule.detection_rule_id})\n`);
  if (!answer.applied || !answer.sync_source) return;
  const count = (action: string) => (answer.files ?? []).filter((f) => f.action === action).length;
  const { push_key: pushKey, branch } = answer.sync_source;
  out.write(
    `synced ${commitSha} to sync source ${pushKey} (${branch}): ${count('created')} created, ${count('updated')} updated, ${count('unchanged')} unchanged, ${(answer.deleted ?? []).length} deleted\n`,
  );
}

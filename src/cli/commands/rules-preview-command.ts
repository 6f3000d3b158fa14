import { readFileSync } from 'node:fs';
import { toPreviewBody, type PreviewResponseBody } from '../../api/index.js';
import { ConflictError, ValidationError, formatRfc3339Ns, messageOf } from '../../core/index.js';
import type { PreviewRequest } from '../../services/index.js';
import { overridesOf, type CliContext, type GlobalOptions } from '../cli-context.js';
import { printJson, printTable } from '../output.js';
import { serverApiKey } from '../server-api-key.js';
import { parseTimeRange } from '../time-range.js';

export interface RulesPreviewOptions extends GlobalOptions {
  readonly tenant: string;
  readonly file?: string;
  readonly from?: string;
  readonly to?: string;
  readonly last?: string;
  readonly maxWindows?: string;
  readonly json?: boolean;
  readonly apiKey?: string;
}

/**
 * `vigil rules preview ID | -f FILE`: which windows of a past range (default the last 7 days) a
 * rule would have alerted, evaluated as the scheduler would, nothing sent or written. In process
 * when the engine is free, else on the running server (`POST /v1/detection_rule_preview`).
 */
export async function runRulesPreview(ctx: CliContext, id: string | undefined, options: RulesPreviewOptions): Promise<number> {
  if ((id === undefined) === (options.file === undefined)) throw new ValidationError('give a rule id or -f FILE (a rule file), not both', { field: 'file' });
  const range = parseTimeRange({ ...options, last: options.from === undefined ? (options.last ?? '7d') : options.last }, ctx.nowMs());
  const maxWindows = options.maxWindows === undefined ? undefined : Number(options.maxWindows);
  if (maxWindows !== undefined && !/^\d+$/.test(options.maxWindows ?? '')) throw new ValidationError('--max-windows takes a whole number from 1 to 500', { field: 'max-windows' });
  const request: PreviewRequest = {
    startTime: formatRfc3339Ns(range.startNs),
    endTime: formatRfc3339Ns(range.endNs),
    ...(id === undefined ? {} : { ruleId: id }),
    ...(options.file === undefined ? {} : { ruleYaml: readRuleFile(options.file) }),
    ...(maxWindows === undefined ? {} : { maxWindows }),
  };
  const config = ctx.loadConfig(overridesOf(options));
  let body: PreviewResponseBody;
  let opened: Awaited<ReturnType<CliContext['openServices']>> | null = null;
  try {
    opened = await ctx.openServices(config, true);
  } catch (error) {
    if (!ctx.isDataDirBusy(error)) throw error;
  }
  if (opened !== null) {
    try {
      const previews = opened.services.previews;
      // eslint-disable-next-line no-restricted-syntax -- internal invariant: the CLI opened the services with the engine
      if (previews === null) throw new Error('rule previews need the events engine');
      body = toPreviewBody(await previews.preview(options.tenant, request));
    } finally {
      await opened.close();
    }
  } else {
    const server = ctx.runningServer(config.dataDir);
    if (!server) throw new ConflictError('the data dir is locked by another vigil process that is not serving HTTP; wait for it to finish');
    body = await previewOverHttp(server.url, serverApiKey(config, options.apiKey), options.tenant, request);
  }
  if (options.json) printJson(ctx.stdout, body);
  else printPreview(ctx.stdout, body);
  return 0;
}

function readRuleFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ValidationError(`cannot read ${path}: ${messageOf(error)}`, { field: 'file' });
  }
}

async function previewOverHttp(url: string, apiKey: string, tenant: string, request: PreviewRequest): Promise<PreviewResponseBody> {
  const response = await fetch(`${url}/v1/detection_rule_preview`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      tenant_id: tenant,
      start_time: request.startTime,
      end_time: request.endTime,
      ...(request.ruleId === undefined ? {} : { rule_id: request.ruleId }),
      ...(request.ruleYaml === undefined ? {} : { rule_yaml: request.ruleYaml }),
      ...(request.maxWindows === undefined ? {} : { max_windows: request.maxWindows }),
    }),
  });
  const body = (await response.json().catch(() => ({}))) as PreviewResponseBody & { error?: string };
  if (response.status === 400) throw new ValidationError(body.error ?? 'the server refused the preview');
  // eslint-disable-next-line no-restricted-syntax -- relays the server's own error answer
  if (!response.ok) throw new Error(`server at ${url} answered ${response.status}: ${body.error ?? response.statusText}`);
  return body;
}

function printPreview(out: NodeJS.WritableStream, body: PreviewResponseBody): void {
  out.write(
    `${body.windows_evaluated} window${body.windows_evaluated === 1 ? '' : 's'} evaluated, ${body.windows_alerted} would have alerted${body.truncated ? ` (the newest ${body.windows.length} shown)` : ''}\n`,
  );
  if (body.windows.length === 0) return;
  const first = (row: Record<string, unknown> | undefined): string => {
    const text = row === undefined ? '' : JSON.stringify(row);
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  printTable(
    out,
    ['WINDOW START', 'WINDOW END', 'ROWS', 'ALERTS', 'SUPPRESSED', 'FIRST ROW'],
    body.windows.map((w) => [w.start_time, w.end_time, String(w.n_rows), String(w.alerts), String(w.suppressed), first(w.rows[0])]),
  );
}

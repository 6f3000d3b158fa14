import { ConflictError, ValidationError, VigilError } from '../../core/index.js';
import { formatDiagnostic, prettySql, printQuery, renderTree, type PredicatePlan } from '../../query/index.js';
import { wireRowId, type SearchService, type TimeRange } from '../../search/index.js';
import type { PrintableResult } from '../query-over-http.js';
import { overridesOf, type CliContext, type GlobalOptions } from '../cli-context.js';
import { printTable } from '../output.js';
import { parseTimeRange } from '../time-range.js';
import { queryOverHttp } from '../query-over-http.js';
import { serverApiKey } from '../server-api-key.js';
import { resolveTenantOption } from '../with-services.js';

export interface QueryCommandOptions extends GlobalOptions {
  readonly tenant: string;
  readonly from?: string;
  readonly to?: string;
  readonly last?: string;
  readonly explain?: boolean;
  readonly json?: boolean;
  readonly csv?: boolean;
  readonly maxRows?: string;
  readonly oldestFirst?: boolean;
  readonly apiKey?: string;
}

/** `vigil query 'text'`: runs a query in process (or only explains it) and prints the result. */
export async function runQueryCommand(ctx: CliContext, text: string, options: QueryCommandOptions): Promise<number> {
  if (options.json && options.csv) throw new ValidationError('choose one of --json and --csv', { field: 'json' });
  const range = parseTimeRange(options, ctx.nowMs());
  const maxRows = parseMaxRows(options.maxRows);
  const config = ctx.loadConfig(overridesOf(options));
  let opened: Awaited<ReturnType<CliContext['openServices']>>;
  try {
    opened = await ctx.openServices(config, true);
  } catch (error) {
    if (!ctx.isDataDirBusy(error)) throw error;
    const server = ctx.runningServer(config.dataDir);
    if (!server) throw new ConflictError('the data dir is locked by another vigil process that is not serving HTTP; wait for it to finish');
    if (options.explain) throw new ValidationError(`--explain runs in process; stop the server (pid ${server.pid}) first`);
    // The server holds the engine: ask it, through the same service behind its HTTP API.
    const request = { tenant: options.tenant, text, range, maxRows, oldestFirst: options.oldestFirst === true };
    const outcome = await queryOverHttp(server.url, serverApiKey(config, options.apiKey), request);
    if ('diagnostics' in outcome) {
      for (const diagnostic of outcome.diagnostics) ctx.stderr.write(`vigil: ${formatDiagnostic(text, diagnostic)}\n`);
      return 2;
    }
    printResult(ctx.stdout, outcome, options);
    return 0;
  }
  try {
    await resolveTenantOption(opened.services, options);
    return await runWithDiagnostics(ctx, text, async () => {
      const search = opened.services.search as SearchService;
      if (options.explain) {
        ctx.stdout.write(await explainText(search, options.tenant, text, range));
        return 0;
      }
      const result = await search.run(options.tenant, text, range, { maxRows, order: options.oldestFirst ? 'asc' : 'desc' });
      printResult(ctx.stdout, result, options);
      return 0;
    });
  } finally {
    await opened.close();
  }
}

/** Query errors print every diagnostic with its caret line; the exit status is 2 (usage). */
async function runWithDiagnostics(ctx: CliContext, text: string, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof VigilError) || error.diagnostics.length === 0) throw error;
    for (const diagnostic of error.diagnostics) ctx.stderr.write(`vigil: ${formatDiagnostic(text, diagnostic)}\n`);
    return 2;
  }
}

const prefilterNames = { search_words: 'the word index search_words', field_paths: 'the column index on field_paths' } as const;

/** How the engine finds a predicate's rows, in words. */
function explainIndexUse(plan: PredicatePlan): string {
  if (plan.index === 'answers') return 'the word index search_words answers it alone (reads no event):';
  if (plan.index === 'none') return 'no index (reads every row in range), then';
  if (plan.index === 'null-check') return 'no index (reads the column from the rest map of every row in range); where it holds a value,';
  const names = (plan.prefilters ?? []).map((name) => prefilterNames[name]);
  return `${names.join(' and ')} ${names.length > 1 ? 'prefilter' : 'prefilters'}, then`;
}

async function explainText(search: SearchService, tenant: string, text: string, range: TimeRange): Promise<string> {
  const { plan, predicates } = await search.explain(tenant, text, range);
  const lines = [
    '-- query --',
    printQuery(plan.query),
    '-- ast --',
    renderTree(plan.query),
    '-- indexes searched --',
    plan.analyzed.scope.map((index) => `${index.name} (${index.id})`).join('\n') || '(none)',
    '-- predicates --',
    ...(predicates.length === 0 ? ['(none: every event in range)'] : predicates.flatMap((p) => [`${p.source}: ${explainIndexUse(p)}`, `    ${p.predicate}`])),
    '-- sql --',
    prettySql(plan.compiled.sql),
  ];
  return `${lines.join('\n')}\n`;
}

function printResult(out: NodeJS.WritableStream, result: PrintableResult, options: QueryCommandOptions): void {
  const { columns, rows } = result;
  if (options.json) {
    // Each row as blocking_query writes it, whether it ran in process or on the server.
    rows.forEach((row, i) => out.write(`${JSON.stringify({ row_id: wireRowId(row, i), columns: row.columns })}\n`));
    return;
  }
  const cell = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
  if (options.csv) {
    const quote = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    out.write(`${columns.map(quote).join(',')}\n`);
    for (const row of rows) out.write(`${columns.map((c) => quote(cell(row.columns[c]))).join(',')}\n`);
    return;
  }
  if (rows.length === 0) {
    out.write('no results\n');
    return;
  }
  // For people: cells on one line, long values cut.
  const shown = (value: unknown): string => {
    const text = cell(value).replace(/\s+/g, ' ');
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  printTable(
    out,
    columns,
    rows.map((row) => columns.map((c) => shown(row.columns[c]))),
  );
  out.write(`${rows.length} row${rows.length === 1 ? '' : 's'}\n`);
}

function parseMaxRows(value: string | undefined): number {
  if (value === undefined) return 1000;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100_000) {
    throw new ValidationError('--max-rows takes a whole number from 1 to 100000', { field: 'max-rows' });
  }
  return Number(value);
}

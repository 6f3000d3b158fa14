import { cliActor } from '../../services/index.js';
import { toDetectionRuleObject } from '../../api/index.js';
import { formatApiTimestamp } from '../../core/index.js';
import { effectiveState } from '../../detections/index.js';
import { allPages } from '../../store/index.js';
import type { CliContext, GlobalOptions } from '../cli-context.js';
import { printJson, printTable } from '../output.js';
import { withStoreServices } from '../with-services.js';

export interface RulesOptions extends GlobalOptions {
  readonly tenant: string;
  readonly json?: boolean;
}

const inTenant = (tenant: string) => (tenantId: string) => tenantId === tenant;

/** `vigil rules list`: every rule of the tenant, all pages, in creation order. */
export async function runRulesList(ctx: CliContext, options: RulesOptions): Promise<number> {
  const rules = await withStoreServices(ctx, options, (s) => allPages((token) => s.rules.list(options.tenant, 1000, token)));
  if (options.json) {
    printJson(
      ctx.stdout,
      rules.map((rule) => toDetectionRuleObject(rule, 'listed')),
    );
    return 0;
  }
  if (rules.length === 0) {
    ctx.stdout.write(`tenant ${options.tenant} has no detection rules\n`);
    return 0;
  }
  printTable(
    ctx.stdout,
    ['ID', 'STATE', 'SEVERITY', 'EVERY', 'LOOKBACK', 'UPDATED', 'NAME'],
    rules.map((r) => [r.id, effectiveState(r), r.severity, `${r.runFrequencyS / 60}m`, `${r.timeRangeS / 60}m`, formatApiTimestamp(r.updatedAt), r.name]),
  );
  return 0;
}

/** `vigil rules get ID`: the rule as the API shows it. */
export async function runRulesGet(ctx: CliContext, id: string, options: RulesOptions): Promise<number> {
  const { rule, state } = await withStoreServices(ctx, options, async (s) => {
    const found = await s.rules.find(id, inTenant(options.tenant));
    return { rule: found, state: await s.store.detectionState.getState(found.id) };
  });
  const object = toDetectionRuleObject(rule, 'full');
  if (options.json) {
    printJson(ctx.stdout, object);
    return 0;
  }
  const lines: [string, string][] = [
    ['id', rule.id],
    ['name', rule.name],
    ['state', `${effectiveState(rule)}${rule.detectionRuleSyncId === null ? '' : ` (synced by ${rule.detectionRuleSyncId})`}`],
    ['severity', rule.severity],
    ['schedule', `every ${rule.runFrequencyS}s over the last ${rule.timeRangeS}s${rule.debounce ? ', debounced' : ''}${rule.alertPerRow ? ', one alert per row' : ''}`],
    ['event sinks', rule.eventSinkIds.join(', ') || '-'],
    ['tags', rule.tags.join(', ') || '-'],
    ['last alerted', rule.lastAlertedAt === null ? 'never' : formatApiTimestamp(rule.lastAlertedAt)],
    ['evaluated to', state?.cursorMs == null ? 'not yet' : formatApiTimestamp(state.cursorMs)],
    ...(state?.lastError
      ? ([['last error', `${state.lastError} (${state.consecutiveFailures} failed run${state.consecutiveFailures === 1 ? '' : 's'} in a row)`]] as [string, string][])
      : []),
    ...(state?.gapEndMs != null && state.gapStartMs != null
      ? ([
          [
            'skipped',
            `${state.skippedWindows} window${state.skippedWindows === 1 ? '' : 's'}, latest gap ${formatApiTimestamp(state.gapStartMs)} – ${formatApiTimestamp(state.gapEndMs)} (older than the catch-up horizon)`,
          ],
        ] as [string, string][])
      : []),
    ['query', rule.queryText],
  ];
  for (const [label, value] of lines) ctx.stdout.write(`${`${label}:`.padEnd(14)}${value}\n`);
  return 0;
}

/** `vigil rules delete ID`. */
export async function runRulesDelete(ctx: CliContext, id: string, options: RulesOptions): Promise<number> {
  const rule = await withStoreServices(ctx, options, (s) => s.rules.delete(id, inTenant(options.tenant), cliActor));
  if (options.json) printJson(ctx.stdout, { id: rule.id, tenant_id: rule.tenantId });
  else ctx.stdout.write(`deleted detection rule ${rule.name} (${rule.id})\n`);
  return 0;
}

import { cliActor, type AlertDetail } from '../../services/index.js';
import { toAlertDetailObject, toAlertObject } from '../../api/index.js';
import { ValidationError, formatApiTimestamp } from '../../core/index.js';
import type { AlertStatus } from '../../store/index.js';
import type { CliContext, GlobalOptions } from '../cli-context.js';
import { printJson, printTable } from '../output.js';
import { withStoreServices } from '../with-services.js';

export interface AlertsOptions extends GlobalOptions {
  readonly tenant: string;
  readonly json?: boolean;
}

export interface AlertsListOptions extends AlertsOptions {
  readonly rule?: string;
  readonly status?: string;
  readonly limit?: string;
}

const statuses: readonly AlertStatus[] = ['pending', 'delivered', 'failed', 'suppressed', 'no_sinks'];
const inTenant = (tenant: string) => (tenantId: string) => tenantId === tenant;

/** `vigil alerts list`: the tenant's latest alerts, newest first. */
export async function runAlertsList(ctx: CliContext, options: AlertsListOptions): Promise<number> {
  if (options.status !== undefined && !(statuses as readonly string[]).includes(options.status)) {
    throw new ValidationError(`--status must be one of ${statuses.join(', ')}`, { field: 'status' });
  }
  const limit = options.limit === undefined ? 50 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new ValidationError('--limit must be an integer from 1 to 1000', { field: 'limit' });
  const listed = await withStoreServices(ctx, options, async (s) => {
    const page = await s.alerts.list(options.tenant, limit, undefined, {
      ...(options.rule ? { ruleId: options.rule } : {}),
      ...(options.status ? { status: options.status as AlertStatus } : {}),
    });
    return Promise.all(page.items.map(async (alert) => ({ alert, deliveries: await s.alerts.deliveriesOf(alert.id) })));
  });
  if (options.json) {
    printJson(
      ctx.stdout,
      listed.map(({ alert, deliveries }) => toAlertObject(alert, deliveries, null)),
    );
    return 0;
  }
  if (listed.length === 0) {
    ctx.stdout.write(`tenant ${options.tenant} has no alerts${options.status ? ` with status ${options.status}` : ''}\n`);
    return 0;
  }
  printTable(
    ctx.stdout,
    ['ID', 'CREATED', 'STATUS', 'SEVERITY', 'DELIVERIES', 'RULE'],
    listed.map(({ alert, deliveries }) => [
      alert.id,
      formatApiTimestamp(alert.createdAt),
      alert.status,
      alert.severity,
      deliveries.length === 0 ? '-' : deliveries.map((d) => `${d.sinkType}:${d.status}`).join(' '),
      alert.ruleName,
    ]),
  );
  return 0;
}

/** `vigil alerts show ID`: the alert, its deliveries and every attempt. */
export async function runAlertsShow(ctx: CliContext, id: string, options: AlertsOptions): Promise<number> {
  const detail = await withStoreServices(ctx, options, (s) => s.alerts.find(id, inTenant(options.tenant)));
  printDetail(ctx, detail, options);
  return 0;
}

/** `vigil alerts resend ID`: re-queues every delivery; a running server sends them. */
export async function runAlertsResend(ctx: CliContext, id: string, options: AlertsOptions): Promise<number> {
  const detail = await withStoreServices(ctx, options, (s) => s.alerts.resend(id, inTenant(options.tenant), cliActor));
  if (options.json) printJson(ctx.stdout, toAlertDetailObject(detail));
  else ctx.stdout.write(`re-queued ${detail.deliveries.length} deliver${detail.deliveries.length === 1 ? 'y' : 'ies'} of alert ${detail.alert.id}; the server sends them\n`);
  return 0;
}

function printDetail(ctx: CliContext, detail: AlertDetail, options: AlertsOptions): void {
  if (options.json) {
    printJson(ctx.stdout, toAlertDetailObject(detail));
    return;
  }
  const { alert } = detail;
  const object = toAlertDetailObject(detail);
  const lines: [string, string][] = [
    ['id', alert.id],
    ['rule', `${alert.ruleName} (${alert.ruleId})`],
    ['status', alert.status],
    ['severity', alert.severity],
    ['window', `${object.detected_in_time_range.start} – ${object.detected_in_time_range.end}`],
    ['fired', object.timestamp],
    ['rows', String(object.results_table?.total_row_count ?? 0)],
    ...object.info.map((item): [string, string] => [item.label, item.value]),
  ];
  for (const [label, value] of lines) ctx.stdout.write(`${`${label}:`.padEnd(14)}${value}\n`);
  if (detail.deliveries.length === 0) return;
  ctx.stdout.write('\n');
  printTable(
    ctx.stdout,
    ['SINK', 'TYPE', 'ATTEMPT', 'OUTCOME', 'HTTP', 'LATENCY', 'ERROR'],
    detail.deliveries.flatMap((delivery) => {
      const attempts = detail.attempts.filter((a) => a.deliveryId === delivery.id);
      if (attempts.length === 0) return [[delivery.sinkId, delivery.sinkType, '-', delivery.status, '-', '-', '']];
      return attempts.map((a) => [
        delivery.sinkId,
        delivery.sinkType,
        new Date(a.at).toISOString(),
        a.outcome,
        a.httpStatus === null ? '-' : String(a.httpStatus),
        `${a.latencyMs}ms`,
        a.error ?? '',
      ]);
    }),
  );
}

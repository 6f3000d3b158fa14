import type { FastifyInstance } from 'fastify';
import { formatRfc3339Ns } from '../../core/index.js';
import type { RulePreviewService } from '../../services/index.js';
import type { RulePreview } from '../../detections/index.js';
import { tenantOf } from '../auth.js';
import { abortOnHangUp } from '../client-hang-up.js';
import { PreviewBody, PreviewResponse, type PreviewResponseBody } from '../console-schemas.js';
import { errorResponses } from '../schemas.js';

const msToRfc3339 = (ms: number): string => formatRfc3339Ns(BigInt(ms) * 1_000_000n);

/** A preview as the API answers it (the CLI prints the same with --json). */
export function toPreviewBody(preview: RulePreview): PreviewResponseBody {
  return {
    windows_evaluated: preview.windowsEvaluated,
    windows_alerted: preview.windowsAlerted,
    windows: preview.windows.map((w) => ({
      start_time: msToRfc3339(w.window.startMs),
      end_time: msToRfc3339(w.window.endMs),
      n_rows: w.rowCount,
      debounced_rows: w.debouncedRows,
      alerts: w.alerts,
      suppressed: w.suppressed,
      column_ordering: [...w.columns],
      rows: w.rows.map((row) => ({ ...row })),
    })),
    truncated: preview.truncated,
  };
}

/** `POST /v1/detection_rule_preview`: which windows of a past range a rule would have alerted, sending and writing nothing. */
export function registerRulePreviewRoutes(app: FastifyInstance, previews: RulePreviewService): void {
  app.post<{ Body: PreviewBody }>(
    '/v1/detection_rule_preview',
    {
      schema: {
        summary: 'Run a rule over every window of a past range as the scheduler would, and answer the windows that would alert',
        tags: ['detection rules'],
        body: PreviewBody,
        response: { 200: PreviewResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const signal = abortOnHangUp(reply);
      const rule = body.rule;
      const preview = await previews.preview(
        tenantOf(request, body.tenant_id),
        {
          startTime: body.start_time,
          endTime: body.end_time,
          ...(body.rule_id === undefined ? {} : { ruleId: body.rule_id }),
          ...(body.rule_yaml === undefined ? {} : { ruleYaml: body.rule_yaml }),
          ...(rule === undefined
            ? {}
            : {
                rule: {
                  queryText: rule.query_text,
                  timeRangeS: rule.time_range_s,
                  runFrequencyS: rule.run_frequency_s,
                  ...(rule.alert_per_row === undefined ? {} : { alertPerRow: rule.alert_per_row }),
                  ...(rule.debounce === undefined ? {} : { debounce: rule.debounce }),
                  ...(rule.dedup_window_s === undefined ? {} : { dedupWindowS: rule.dedup_window_s }),
                  ...(rule.alert_template === undefined ? {} : { alertTemplate: rule.alert_template }),
                },
              }),
          ...(body.max_windows === undefined ? {} : { maxWindows: body.max_windows }),
        },
        signal,
      );
      return toPreviewBody(preview);
    },
  );
}

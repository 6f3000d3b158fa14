/** Request bodies of the rules and sinks API that the end-to-end tests start from. */

/** A Webhook sink body for `POST /v1/event_sink`. */
export const webhookSinkBody = (tenant: string, name: string) => ({
  tenant_id: tenant,
  name,
  description: '',
  event_sink_args: { Webhook: { url: `https://hooks.example.com/${name}` } },
});

/** The smallest valid `POST /v1/detection_rule` body for tenant acme, with overrides. */
export const minimalRuleBody = (overrides: Record<string, unknown> = {}) => ({
  tenant_id: 'acme',
  name: 'console login from a new country',
  description: 'fires on console logins',
  time_range_s: 300,
  run_frequency_s: 60,
  enabled_state_override: 'Active',
  severity: 'Medium',
  query_text: 'eventName: ConsoleLogin',
  event_sink_ids: [],
  ...overrides,
});

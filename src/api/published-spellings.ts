/**
 * Request bodies as the published product's clients write them (docs/compatibility.md), read as
 * the interface's before schemas see them: preValidation hooks of the rule and sink routes.
 * Every spelling the interface has keeps working; a field the published clients send is never a
 * 400 for being theirs (a field Vigil has no use for is dropped and named in a `Warning` header).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../core/index.js';

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The published sink variants, as the interface calls them (interface naming note). */
const sinkVariantNames: Readonly<Record<string, string>> = { Slack: 'Chat', PagerDuty: 'Pager' };

/**
 * `event_sink_args` in the published spellings: `{Slack: {channel_id, slack_integration_id}}`
 * is `{Chat: {channel_id, chat_integration_id}}`, `{PagerDuty: …}` is `{Pager: …}`. A `null`
 * the published SDK may send for an unset channel counts as absent.
 */
export function readSinkArgs(args: unknown, form: 'create' | 'update'): void {
  if (!isObject(args)) return;
  const slack = args.Slack;
  if (form === 'create' && isObject(slack) && slack.slack_integration_id === undefined && !('Chat' in args)) {
    // Checked here, where the field still has the name the client gave it.
    throw new ValidationError('event_sink_args.Slack.slack_integration_id is required', { field: 'event_sink_args.Slack.slack_integration_id' });
  }
  for (const [published, ours] of Object.entries(sinkVariantNames)) {
    if (!(published in args) || ours in args) continue;
    const value = args[published];
    delete args[published];
    args[ours] = published === 'Slack' && isObject(value) ? chatArgsOf(value) : value;
  }
}

function chatArgsOf(slack: Body): Body {
  const { slack_integration_id: integration, ...rest } = slack;
  const chat: Body = {};
  for (const [key, value] of Object.entries(rest)) if (!((key === 'channel' || key === 'channel_id') && value === null)) chat[key] = value;
  return integration === undefined ? chat : { ...chat, chat_integration_id: integration };
}

type EnabledState = 'Active' | 'Staging' | 'Paused';
const states: readonly string[] = ['Active', 'Staging', 'Paused'];

/**
 * The published SDK's `enabled` (a boolean; its rule files also write a state): true runs the
 * rule and alerts (Active), false pauses it; a state is that state.
 */
function stateOfEnabled(value: unknown): EnabledState {
  if (value === true) return 'Active';
  if (value === false) return 'Paused';
  if (typeof value === 'string' && states.includes(value)) return value as EnabledState;
  throw new ValidationError('enabled must be true, false, Active, Staging or Paused', { field: 'enabled' });
}

/** Its `enabled_override`: null clears the override (a synced rule takes its synced state again). */
function stateOfOverride(value: unknown): EnabledState | null {
  if (value === null) return null;
  if (value === true || value === false || (typeof value === 'string' && states.includes(value))) return stateOfEnabled(value);
  throw new ValidationError('enabled_override must be true, false or null', { field: 'enabled_override' });
}

/**
 * A rule create or update body in the published spellings. `enabled` and `enabled_override`
 * become `enabled_state_override` (given together they must agree); `starting_permissions`
 * (roles allowed on the rule: Vigil has none, any key holding the tenant may act on its rules)
 * is dropped with a warning; `tags: null` means no tags given. Returns the warnings.
 */
export function readRuleBody(body: Body): string[] {
  const warnings: string[] = [];
  if ('starting_permissions' in body) {
    delete body.starting_permissions;
    warnings.push('starting_permissions is ignored: every api key holding the tenant may read and change its rules');
  }
  if (body.tags === null) delete body.tags;
  const given: [string, EnabledState | null][] = [];
  if ('enabled_state_override' in body) given.push(['enabled_state_override', body.enabled_state_override as EnabledState | null]);
  if (body.enabled !== undefined && body.enabled !== null) given.push(['enabled', stateOfEnabled(body.enabled)]);
  if (body.enabled_override !== undefined) given.push(['enabled_override', stateOfOverride(body.enabled_override)]);
  delete body.enabled;
  delete body.enabled_override;
  const [first, ...others] = given;
  if (first === undefined) return warnings;
  for (const [field, state] of others) {
    if (state !== first[1]) {
      throw new ValidationError(`${field} (${JSON.stringify(state)}) contradicts ${first[0]} (${JSON.stringify(first[1])}): give one of them`, { field });
    }
  }
  body.enabled_state_override = first[1];
  return warnings;
}

/** Sends the warnings of a request as one `Warning` header (RFC 9111 5.5, code 299: miscellaneous persistent warning). */
export function warn(reply: FastifyReply, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  void reply.header('warning', warnings.map((w) => `299 vigil ${JSON.stringify(w)}`).join(', '));
}

/** preValidation hook of the rule create and update routes. */
export async function readPublishedRuleSpellings(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (isObject(request.body)) warn(reply, readRuleBody(request.body));
}

/** preValidation hook of the sink create and update routes. */
export async function readPublishedSinkSpellings(request: FastifyRequest): Promise<void> {
  if (isObject(request.body)) readSinkArgs(request.body.event_sink_args, request.method === 'POST' ? 'create' : 'update');
}

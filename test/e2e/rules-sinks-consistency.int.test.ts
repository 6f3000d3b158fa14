/**
 * Property: any sequence of valid and invalid requests creating, changing and deleting rules and
 * sinks, sent by the keys of two tenants (each sometimes naming the other's objects), never
 * answers 5xx, never shows a tenant another tenant's object, and leaves the store consistent:
 * every rule's event_sink_ids name existing sinks of its own tenant.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/services/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await openApiHarness();
}, 120_000);
afterAll(async () => h?.close());

const side = fc.constantFrom(0, 1);
/** Which object a request names: mostly one of the actor's own, sometimes the other tenant's or an unknown id. */
const target = fc.record({ n: fc.nat(), whose: fc.constantFrom('own', 'own', 'own', 'own', 'other', 'unknown') });
const sinkTarget = fc.record({ n: fc.nat(), whose: fc.oneof({ arbitrary: fc.constant('own'), weight: 12 }, { arbitrary: fc.constantFrom('other', 'unknown'), weight: 1 }) });
type Target = { n: number; whose: string };
/** Valid variants (0-2) come up more often than the invalid ones (3-6). */
const variant = fc.oneof({ arbitrary: fc.nat({ max: 2 }), weight: 3 }, { arbitrary: fc.integer({ min: 3, max: 6 }), weight: 1 });
const patch = fc.oneof({ arbitrary: fc.constantFrom(0, 1, 5), weight: 3 }, { arbitrary: fc.constantFrom(2, 3, 4, 6, 7), weight: 1 });
const crossTenant = fc.nat({ max: 5 }).map((n) => n === 0);
const action = fc.oneof(
  fc.record({ kind: fc.constant('createSink' as const), actor: side, crossTenant, variant }),
  fc.record({ kind: fc.constant('updateSink' as const), actor: side, target, variant }),
  fc.record({ kind: fc.constant('deleteSink' as const), actor: side, target }),
  { arbitrary: fc.record({ kind: fc.constant('createRule' as const), actor: side, crossTenant, sinks: fc.array(sinkTarget, { maxLength: 3 }), patch }), weight: 2 },
  fc.record({ kind: fc.constant('updateRule' as const), actor: side, target, sinks: fc.array(sinkTarget, { maxLength: 3 }), patch }),
  fc.record({ kind: fc.constant('deleteRule' as const), actor: side, target }),
  fc.record({ kind: fc.constant('read' as const), actor: side, target, what: fc.constantFrom('detection_rule', 'event_sink') }),
);

describe('rules and sinks under random requests from two tenants', () => {
  it('never 5xx, never another tenant object, and every rule names existing sinks of its tenant', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 40 }), async (actions) => {
        run += 1;
        const tenants = [`left-${run}`, `right-${run}`] as const;
        const keys = [await h.keyFor(tenants[0]), await h.keyFor(tenants[1])];
        const integrations = await Promise.all(tenants.map(async (t) => (await h.runtime.services.chatIntegrations.add(t, { token: `xoxb-token-${t}` }, cliActor)).id));
        // Every id ever created, live or deleted, per tenant: requests name them at random.
        const sinkIds: [string[], string[]] = [[], []];
        const ruleIds: [string[], string[]] = [[], []];
        const owner = new Map<string, string>();
        const pick = (ids: [string[], string[]], actor: number, t: Target): string => {
          const pool = t.whose === 'unknown' ? [] : (ids[t.whose === 'own' ? actor : 1 - actor] ?? []);
          return pool[t.n % Math.max(pool.length, 1)] ?? `no-such-id-${t.n % 3}`;
        };

        const seed = async (actor: number) => {
          for (let i = 0; i < 2; i++) {
            const sink = await h.call('POST', '/v1/event_sink', keys[actor] ?? '', { tenant_id: tenants[actor], name: 'seed', description: '', event_sink_args: { Pager: { integration_key: 'abcdefghijklmnopqrstuvwxyz012345' } } });
            sinkIds[actor]?.push(sink.body.event_sink.id);
            owner.set(sink.body.event_sink.id, tenants[actor] ?? '');
          }
          const rule = await h.call('POST', '/v1/detection_rule', keys[actor] ?? '', {
            tenant_id: tenants[actor], name: 'seed', description: '', time_range_s: 300, run_frequency_s: 60, enabled_state_override: 'Paused', severity: 'Low', query_text: 'x', event_sink_ids: sinkIds[actor],
          });
          ruleIds[actor]?.push(rule.body.detection_rule.id);
          owner.set(rule.body.detection_rule.id, tenants[actor] ?? '');
        };
        await seed(0);
        await seed(1);

        const sinkArgs = (variant: number, tenant: number): unknown =>
          [
            { Webhook: { url: 'https://hooks.example.com/in', headers: { 'X-Token': 'secret' } } },
            { Pager: { integration_key: 'abcdefghijklmnopqrstuvwxyz012345' } },
            { Chat: { channel_id: 'C1', chat_integration_id: integrations[tenant] } },
            { Chat: { channel_id: 'C1', chat_integration_id: integrations[1 - tenant] } }, // another tenant's integration
            { Webhook: { url: 'http://169.254.169.254/' } },
            { Webhook: {} },
            { Slack: { channel: '#x' } },
          ][variant];
        const rulePatch = (patch: number): Record<string, unknown> =>
          [
            {},
            { severity: 'Information', tags: ['t'] },
            { time_range_s: 90 },
            { query_text: 'a != b' },
            { enabled_state_override: null },
            { alert_template: { info: [['x', '{{ y }}']] } },
            { alert_template: { info: [{ label: 'x', value: '{{ y' }] } },
            { run_frequency_s: 3600 },
          ][patch] ?? {};

        for (const a of actions) {
          const key = keys[a.actor] ?? '';
          const actorTenant = tenants[a.actor];
          let response: { status: number; body: any };
          switch (a.kind) {
            case 'createSink': {
              const tenant = a.crossTenant ? 1 - a.actor : a.actor;
              response = await h.call('POST', '/v1/event_sink', key, { tenant_id: tenants[tenant], name: 's', description: '', event_sink_args: sinkArgs(a.variant, tenant) });
              if (response.status === 200) {
                sinkIds[a.actor]?.push(response.body.event_sink.id);
                owner.set(response.body.event_sink.id, response.body.event_sink.tenant_id);
              }
              break;
            }
            case 'updateSink': {
              const id = pick(sinkIds, a.actor, a.target);
              response = await h.call('PUT', `/v1/event_sink/${id}`, key, { id, name: 'renamed', event_sink_args: sinkArgs(a.variant, a.actor) });
              break;
            }
            case 'deleteSink':
              response = await h.call('DELETE', `/v1/event_sink/${pick(sinkIds, a.actor, a.target)}`, key);
              break;
            case 'createRule':
              response = await h.call('POST', '/v1/detection_rule', key, {
                tenant_id: tenants[a.crossTenant ? 1 - a.actor : a.actor],
                name: 'r',
                description: '',
                time_range_s: 600,
                run_frequency_s: 60,
                enabled_state_override: 'Active',
                severity: 'High',
                query_text: 'user: x',
                event_sink_ids: a.sinks.map((t) => pick(sinkIds, a.actor, t)),
                ...rulePatch(a.patch),
              });
              if (response.status === 200) {
                ruleIds[a.actor]?.push(response.body.detection_rule.id);
                owner.set(response.body.detection_rule.id, response.body.detection_rule.tenant_id);
              }
              break;
            case 'updateRule': {
              const id = pick(ruleIds, a.actor, a.target);
              response = await h.call('PUT', `/v1/detection_rule/${id}`, key, { id, event_sink_ids: a.sinks.map((t) => pick(sinkIds, a.actor, t)), ...rulePatch(a.patch) });
              break;
            }
            case 'deleteRule':
              response = await h.call('DELETE', `/v1/detection_rule/${pick(ruleIds, a.actor, a.target)}`, key);
              break;
            case 'read': {
              const id = pick(a.what === 'detection_rule' ? ruleIds : sinkIds, a.actor, a.target);
              response = await h.call('GET', `/v1/${a.what}/${id}`, key);
              if (owner.get(id) !== undefined && owner.get(id) !== actorTenant) expect(response.status).toBe(404);
              break;
            }
          }
          expect(response.status, JSON.stringify({ a, body: response.body })).toBeLessThan(500);
          expect([200, 400, 403, 404, 409]).toContain(response.status);
          // Whatever a key gets back belongs to its own tenant.
          if (response.status === 200) {
            const object = response.body.detection_rule ?? response.body.event_sink ?? response.body;
            expect(object.tenant_id).toBe(actorTenant);
          }
        }

        for (const [i, tenant] of tenants.entries()) {
          const key = keys[i] ?? '';
          const rules = (await h.call('GET', `/v1/detection_rule?tenant_id=${tenant}&pagination[page_size]=1000`, key)).body.data.detection_rules;
          const sinks = (await h.call('GET', `/v1/event_sink?tenant_id=${tenant}&pagination[page_size]=1000`, key)).body.data.event_sinks;
          const liveSinks = new Set<string>(sinks.map((s: { id: string }) => s.id));
          for (const listed of [...rules, ...sinks]) expect(listed.tenant_id).toBe(tenant);
          for (const listed of rules) {
            const rule = (await h.call('GET', `/v1/detection_rule/${listed.id}`, key)).body.detection_rule;
            for (const sinkId of rule.event_sink_ids) expect(liveSinks.has(sinkId)).toBe(true);
            expect((await h.call('GET', `/v1/detection_rule/${listed.id}`, keys[1 - i] ?? '')).status).toBe(404);
          }
          for (const sink of sinks) expect((await h.call('GET', `/v1/event_sink/${sink.id}`, keys[1 - i] ?? '')).status).toBe(404);
          // The same, straight from the store.
          let token: string | undefined;
          do {
            const page = await h.runtime.store.rules.list(tenant, { pageSize: 1000, ...(token ? { pageToken: token } : {}) });
            for (const summary of page.items) {
              const rule = await h.runtime.store.rules.get(tenant, summary.id);
              const existing = await h.runtime.store.sinks.existing(tenant, rule?.eventSinkIds ?? []);
              expect(existing.size).toBe(rule?.eventSinkIds.length);
            }
            token = page.nextPageToken ?? undefined;
          } while (token);
        }
      }),
      { numRuns: 30 },
    );
  });
});

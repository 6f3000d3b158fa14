/**
 * Repository sync through the HTTP API (detections.md 3.4-3.5): successive uploads of a rule
 * repository add, change, rename and delete rules; a failing file blocks the whole upload; racing
 * uploads leave one archive's rules; synced rules are read-only but for their override; tenants
 * stay apart. Real engine (rule tests run on it) and store, in process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositorySync, cliActor, type RepositoryUpload } from '../../src/services/index.js';
import { ManualClock } from '../../src/core/index.js';
import type { SyncCommit } from '../../src/store/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { webhookSinkBody as webhook } from '../support/rule-bodies.js';
import { multipartOf, ruleFile, zipOf } from '../support/rule-repository.js';

const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
let h: ApiHarness;
let acme: string;
let globex: string;
let sinkA: string;
let sinkB: string;
let sourceId: string;

interface Upload {
  readonly push_key?: string;
  readonly branch?: string;
  readonly commit_sha?: string;
  readonly commit_message?: string;
  readonly tenant_id?: string;
}

async function upload(key: string, files: Record<string, string> | Uint8Array, fields: Upload = {}) {
  const zip = files instanceof Uint8Array ? files : zipOf(files, 'acme-detections-0123abc');
  const form = await multipartOf({ push_key: 'detections', branch: 'main', commit_sha: '0123abc', ...fields }, zip);
  const response = await h.app.inject({ method: 'POST', url: '/v1/upload_git_repo_zipball', headers: { authorization: `Bearer ${key}`, 'content-type': form.contentType }, payload: form.payload });
  return { status: response.statusCode, body: response.json() };
}

/** An upload as the service takes it, for syncs driven without HTTP. */
function uploadOf(commitSha: string, files: Record<string, string>): RepositoryUpload {
  return { pushKey: 'detections', branch: 'main', commitSha, commitMessage: null, archive: zipOf(files) };
}

/** The tenant's rules, by name, as the API lists them. */
async function rulesOf(key: string, tenant: string): Promise<Map<string, any>> {
  const listed = await h.call('GET', `/v1/detection_rule?tenant_id=${tenant}&pagination[page_size]=1000`, key);
  return new Map(listed.body.data.detection_rules.map((r: { name: string }) => [r.name, r]));
}

beforeAll(async () => {
  h = await openApiHarness({ clock });
  acme = await h.keyFor('acme');
  globex = await h.keyFor('globex');
  sinkA = (await h.call('POST', '/v1/event_sink', acme, webhook('acme', 'a'))).body.event_sink.id;
  sinkB = (await h.call('POST', '/v1/event_sink', acme, webhook('acme', 'b'))).body.event_sink.id;
  const created = await h.call('POST', '/v1/sync_source', acme, { tenant_id: 'acme', push_key: 'detections', branch: 'main', event_sink_keys: { high: [sinkA], all: [sinkA, sinkB] } });
  expect(created.status).toBe(200);
  sourceId = created.body.sync_source.id;
}, 120_000);
afterAll(async () => h?.close());

describe('successive uploads', () => {
  it('a first upload creates one synced rule per rule file, its sinks resolved, and records the commit', async () => {
    const synced = await upload(
      acme,
      {
        'rules/login.yml': ruleFile('Console login', { sinkKeys: ['high'] }),
        'rules/keys.yaml': ruleFile('Access key created', { enabled: 'Staging', sinkKeys: ['all', 'high'] }),
        'README.md': '# our detections',
        '.github/workflows/validate.yml': 'on: push\n',
      },
      { commit_message: 'first rules' },
    );
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({
      applied: true,
      files: [
        { file_path: 'rules/keys.yaml', status: 'Passed', action: 'created', tests: [{ name: 'fires on Accesskeycreated', status: 'Passed' }] },
        { file_path: 'rules/login.yml', status: 'Passed', action: 'created' },
      ],
      deleted: [],
      ignored_files: [{ file_path: '.github/workflows/validate.yml', reason: 'in a hidden folder' }],
      sync_source: { id: sourceId, last_commit_sha: '0123abc', last_commit_message: 'first rules', last_synced_at: '2026-11-21T12:00:00Z' },
    });
    const rules = await rulesOf(acme, 'acme');
    expect([...rules.keys()].sort()).toEqual(['Access key created', 'Console login']);
    const keys = await h.call('GET', `/v1/detection_rule/${synced.body.files[0].detection_rule_id}`, acme);
    expect(keys.body.detection_rule).toMatchObject({
      name: 'Access key created',
      detection_rule_sync_id: sourceId,
      sync_key: `sync:${sourceId}:rules/keys.yaml`,
      enabled_state_synced: 'Staging',
      enabled_state_override: null,
      event_sink_ids: [sinkA, sinkB],
      severity: 'High',
    });
  });

  it('an identical upload changes nothing; a changed, renamed, added and removed file each do what they say', async () => {
    const before = await rulesOf(acme, 'acme');
    clock.advance(60_000);
    const same = await upload(acme, { 'rules/login.yml': ruleFile('Console login', { sinkKeys: ['high'] }), 'rules/keys.yaml': ruleFile('Access key created', { enabled: 'Staging', sinkKeys: ['all', 'high'] }) });
    expect(same.body.files.map((f: { action: string }) => f.action)).toEqual(['unchanged', 'unchanged']);
    expect(await rulesOf(acme, 'acme')).toEqual(before);

    clock.advance(60_000);
    const next = await upload(
      acme,
      {
        'rules/login.yml': ruleFile('Console login', { sinkKeys: ['all'], severity: 'Critical' }),
        'rules/iam/keys.yaml': ruleFile('Access key created', { enabled: 'Staging', sinkKeys: ['all', 'high'] }),
        'rules/root.yml': ruleFile('Root login'),
      },
      { commit_sha: '4567def+dirty' },
    );
    expect(next.status).toBe(200);
    const actions = Object.fromEntries(next.body.files.map((f: { file_path: string; action: string }) => [f.file_path, f.action]));
    expect(actions).toEqual({ 'rules/iam/keys.yaml': 'created', 'rules/login.yml': 'updated', 'rules/root.yml': 'created' });
    expect(next.body.deleted).toEqual([{ detection_rule_id: before.get('Access key created').id, name: 'Access key created', file_path: 'rules/keys.yaml' }]);
    const after = await rulesOf(acme, 'acme');
    expect([...after.keys()].sort()).toEqual(['Access key created', 'Console login', 'Root login']);
    // Changed in place: same rule, new fields; renamed: a new rule at the new path.
    expect(after.get('Console login')).toMatchObject({ id: before.get('Console login').id, severity: 'Critical', updated_at: '2026-11-21T12:02:00Z' });
    expect(after.get('Access key created').id).not.toBe(before.get('Access key created').id);
    expect((await h.call('GET', `/v1/detection_rule/${after.get('Console login').id}`, acme)).body.detection_rule.event_sink_ids).toEqual([sinkA, sinkB]);
    expect((await h.call('GET', `/v1/sync_source/${sourceId}`, acme)).body.sync_source).toMatchObject({ last_commit_sha: '4567def+dirty', last_commit_message: null });

    const emptied = await upload(acme, { 'rules/root.yml': ruleFile('Root login') });
    expect(emptied.body.deleted.map((d: { name: string }) => d.name).sort()).toEqual(['Access key created', 'Console login']);
    expect([...(await rulesOf(acme, 'acme')).keys()]).toEqual(['Root login']);
  });

  it('writes one _audit entry per applied sync, naming what it did', async () => {
    const entries = (await h.runtime.store.audit.listUnshipped(10_000)).filter((e) => e.action === 'sync_source.sync');
    expect(entries.length).toBeGreaterThanOrEqual(4);
    const emptying = entries.find((e) => (e.details.deleted as unknown[]).length === 2);
    expect(emptying).toMatchObject({ tenantId: 'acme', target: sourceId, actor: expect.stringMatching(/^key:/), details: { push_key: 'detections', branch: 'main', created: [], updated: [], unchanged: 1 } });
    expect((emptying?.details.deleted as { path: string }[]).map((d) => d.path).sort()).toEqual(['rules/iam/keys.yaml', 'rules/login.yml']);
  });
});

describe('all or nothing', () => {
  it('a failing test, an invalid file or an unmapped sink key blocks the whole upload: 422 with every problem, nothing changed', async () => {
    const before = await rulesOf(acme, 'acme');
    const source = (await h.call('GET', `/v1/sync_source/${sourceId}`, acme)).body.sync_source;
    const failed = await upload(acme, {
      'rules/root.yml': ruleFile('Root login', { severity: 'Low' }),
      'rules/new.yml': ruleFile('Would be new'),
      'rules/failing.yml': ruleFile('Failing', { expect: false }),
      'rules/invalid.yml': '# schema: x\nname: Invalid\ndescription: no query\ntime_range_s: 90\nrun_frequency_s: 60\n',
      'rules/unmapped.yml': ruleFile('Unmapped', { sinkKeys: ['pager'] }),
    });
    expect(failed.status).toBe(422);
    expect(failed.body.applied).toBe(false);
    expect(failed.body.error).toMatch(/^3 of 5 rule files failed: nothing was applied/);
    const byPath = Object.fromEntries(failed.body.files.map((f: { file_path: string }) => [f.file_path, f]));
    expect(byPath['rules/failing.yml']).toMatchObject({ status: 'TestsFailed', tests: [{ name: 'fires on Failing', status: 'Failed' }] });
    expect(byPath['rules/invalid.yml'].status).toBe('Invalid');
    expect(byPath['rules/invalid.yml'].error).toMatch(/query_text/);
    expect(byPath['rules/unmapped.yml']).toMatchObject({ status: 'Invalid', error: expect.stringMatching(/^event_sink_keys "pager" is not mapped to any sink by sync source "detections"/) });
    expect(byPath['rules/root.yml']).toMatchObject({ status: 'Passed' });
    expect(byPath['rules/root.yml'].action).toBeUndefined();
    expect(await rulesOf(acme, 'acme')).toEqual(before);
    expect((await h.call('GET', `/v1/sync_source/${sourceId}`, acme)).body.sync_source).toEqual(source);
  });
});

describe('concurrency', () => {
  it('two uploads racing leave the rules of exactly one archive, and its commit', async () => {
    const first = { 'rules/a.yml': ruleFile('Race A'), 'rules/b.yml': ruleFile('Race B') };
    const second = { 'rules/b.yml': ruleFile('Race B', { severity: 'Low' }), 'rules/c.yml': ruleFile('Race C'), 'rules/d.yml': ruleFile('Race D') };
    for (let round = 0; round < 2; round++) {
      const [one, two] = await Promise.all([upload(acme, first, { commit_sha: `first${round}` }), upload(acme, second, { commit_sha: `second${round}` })]);
      expect([one.status, two.status]).toEqual([200, 200]);
      const rules = await rulesOf(acme, 'acme');
      const names = [...rules.keys()].sort();
      const sha = (await h.call('GET', `/v1/sync_source/${sourceId}`, acme)).body.sync_source.last_commit_sha;
      if (sha === `first${round}`) expect(names).toEqual(['Race A', 'Race B']);
      else expect({ sha, names, severity: rules.get('Race B').severity }).toEqual({ sha: `second${round}`, names: ['Race B', 'Race C', 'Race D'], severity: 'Low' });
    }
  });

  it('a sync whose plan went stale (another process synced between its plan and its write) plans again over the new state', async () => {
    const { store, syncSources, ruleFiles } = h.runtime.services;
    const otherProcess = new RepositorySync(store, syncSources, ruleFiles, clock);
    let raced = false;
    // The real store, except that this process's first sync write lets the other process's sync land first.
    const racing = new Proxy(store.syncSources, {
      get(target, name) {
        if (name !== 'applySync') return (Reflect.get(target, name) as (...a: unknown[]) => unknown).bind(target);
        return async (commit: SyncCommit) => {
          if (!raced) {
            raced = true;
            const other = await otherProcess.upload(uploadOf('other', { 'rules/y.yml': ruleFile('Process Y') }), () => true, cliActor, null);
            expect(other.applied).toBe(true);
          }
          return target.applySync(commit);
        };
      },
    });
    const thisProcess = new RepositorySync(new Proxy(store, { get: (target, name) => (name === 'syncSources' ? racing : Reflect.get(target, name)) }), syncSources, ruleFiles, clock);
    const before = (await store.syncSources.get('acme', sourceId))?.revision ?? 0;
    const result = await thisProcess.upload(uploadOf('this', { 'rules/x.yml': ruleFile('Process X') }), () => true, cliActor, null);
    expect(raced).toBe(true);
    expect(result.deleted.map((d) => d.name)).toEqual(['Process Y']);
    expect([...(await rulesOf(acme, 'acme')).keys()]).toEqual(['Process X']);
    expect(await store.syncSources.get('acme', sourceId)).toMatchObject({ lastCommitSha: 'this', revision: before + 2 });
  });
});

describe('synced rules are read-only through the rules API', () => {
  it('refuse changes and deletion, take an override that later syncs keep', async () => {
    await upload(acme, { 'rules/root.yml': ruleFile('Root login') });
    const rule = (await rulesOf(acme, 'acme')).get('Root login');
    const renamed = await h.call('PUT', `/v1/detection_rule/${rule.id}`, acme, { id: rule.id, name: 'mine now' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error).toMatch(/is synced from a repository: only enabled_state_override can be updated through the API, not name/);
    const deleted = await h.call('DELETE', `/v1/detection_rule/${rule.id}`, acme);
    expect(deleted.status).toBe(400);
    expect(deleted.body.error).toMatch(/is synced from a repository .*delete its file from the repository and sync, or delete the sync source/);
    const paused = await h.call('PUT', `/v1/detection_rule/${rule.id}`, acme, { id: rule.id, enabled_state_override: 'Paused' });
    expect(paused.body.detection_rule).toMatchObject({ enabled_state_override: 'Paused', enabled_state_synced: 'Active' });
    await upload(acme, { 'rules/root.yml': ruleFile('Root login', { severity: 'Medium' }) });
    expect((await h.call('GET', `/v1/detection_rule/${rule.id}`, acme)).body.detection_rule).toMatchObject({ severity: 'Medium', enabled_state_override: 'Paused' });
  });
});

/**
 * `vigil sync-sources` and `vigil rules sync DIR` against a server listening on loopback in this
 * process: the CLI zips a temporary git repository's tracked files, names its commit (`+dirty`
 * when tracked files changed), uploads it and prints each file's outcome.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliContext } from '../../src/cli/index.js';
import { loadConfig } from '../../src/config/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';
import { ruleFile } from '../support/rule-repository.js';

let h: ApiHarness;
let url: string;
let key: string;
let sinkId: string;
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-repo-'));
  dirs.push(dir);
  return dir;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim();

async function vigil(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const dataDir = tempDir();
  const ctx: CliContext = {
    stdout,
    stderr,
    stdin: new PassThrough(),
    interactive: false,
    loadConfig: (overrides) => loadConfig({ dataDir, ...overrides }, {}),
    openServices: async () => ({ services: h.runtime.services, close: async () => {} }),
    serve: async () => {},
    runningServer: () => null,
    isDataDirBusy: () => false,
    nowMs: () => Date.now(),
  };
  const status = await runCli(argv, ctx, '0');
  const text = (s: PassThrough) => (s.read() as Buffer | null)?.toString() ?? '';
  return { status, out: text(stdout), err: text(stderr) };
}

const sync = (dir: string, ...more: string[]) => vigil('rules', 'sync', dir, '--push-key', 'team-rules', '--api-url', url, '--api-key', key, ...more);

beforeAll(async () => {
  h = await openApiHarness();
  key = await h.keyFor('acme');
  url = await h.app.listen({ host: '127.0.0.1', port: 0 });
  sinkId = (await h.call('POST', '/v1/event_sink', key, { tenant_id: 'acme', name: 'a', description: '', event_sink_args: { Webhook: { url: 'https://hooks.example.com/a' } } })).body.event_sink.id;
}, 120_000);
afterAll(async () => {
  await h?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('vigil sync-sources', () => {
  it('create maps sink keys, list shows the source, delete removes it', async () => {
    const created = await vigil('sync-sources', 'create', '--tenant', 'acme', '--push-key', 'team-rules', '--branch', 'main', '--sink-key', `high=${sinkId}`, '--json');
    expect(created).toMatchObject({ status: 0, err: '' });
    expect(JSON.parse(created.out)).toMatchObject({ push_key: 'team-rules', branch: 'main', event_sink_keys: { high: [sinkId] }, last_commit_sha: null });
    const listed = await vigil('sync-sources', 'list', '--tenant', 'acme');
    expect(listed.out).toMatch(/team-rules\s+main\s+-\s+-\s+high=/);
    const other = await vigil('sync-sources', 'create', '--tenant', 'acme', '--push-key', 'scratch', '--branch', 'dev', '--json');
    const id = JSON.parse(other.out).id;
    expect(await vigil('sync-sources', 'delete', id, '--tenant', 'acme')).toMatchObject({ status: 0, out: `deleted sync source scratch (dev, ${id}) and its 0 rules\n` });
    expect((await vigil('sync-sources', 'create', '--tenant', 'acme', '--push-key', 'x', '--branch', 'main', '--sink-key', 'nokey')).status).toBe(2);
  });
});

describe('vigil rules sync', () => {
  it('uploads the tracked files of a git repository with its commit, then its dirty changes', async () => {
    const repo = tempDir();
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, { 'rules/login.yml': ruleFile('CLI login', { sinkKeys: ['high'] }), 'rules/keys.yml': ruleFile('CLI keys'), 'README.md': '# rules\n' });
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first rules');
    write(repo, { 'rules/untracked.yml': ruleFile('Never uploaded') });
    const sha = git(repo, 'rev-parse', 'HEAD');

    const first = await sync(repo);
    expect(first.err).toBe('');
    expect(first.status).toBe(0);
    expect(first.out).toMatch(/^rules\/keys.yml: created \(rule [0-9a-f-]{36}\)\nrules\/login.yml: created \(rule [0-9a-f-]{36}\)\n/);
    expect(first.out).toContain(`synced ${sha} to sync source team-rules (main): 2 created, 0 updated, 0 unchanged, 0 deleted\n`);

    write(repo, { 'rules/login.yml': ruleFile('CLI login', { sinkKeys: ['high'], severity: 'Low' }) });
    const dirty = await sync(repo, '--json');
    expect(dirty.status).toBe(0);
    const answer = JSON.parse(dirty.out);
    expect(answer.sync_source).toMatchObject({ last_commit_sha: `${sha}+dirty`, last_commit_message: 'first rules', branch: 'main' });
    expect(answer.files.map((f: { file_path: string; action: string }) => `${f.file_path} ${f.action}`)).toEqual(['rules/keys.yml unchanged', 'rules/login.yml updated']);
  });

  it('a failing test exits 1, prints what failed, and changes nothing', async () => {
    const repo = tempDir();
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, { 'rules/login.yml': ruleFile('CLI login', { sinkKeys: ['high'] }), 'rules/broken.yml': ruleFile('CLI broken', { expect: false }) });
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'break it');
    const before = (await h.call('GET', '/v1/detection_rule?tenant_id=acme', key)).body;
    const failed = await sync(repo);
    expect(failed.status).toBe(1);
    expect(failed.out).toContain('rules/broken.yml: TestsFailed');
    expect(failed.out).toContain('    fires on CLIbroken: Failed\n');
    expect(failed.err).toMatch(/^vigil: 1 of 2 rule files failed: nothing was applied/);
    expect((await h.call('GET', '/v1/detection_rule?tenant_id=acme', key)).body).toEqual(before);
  });

  it('a folder outside git needs --branch and --commit-sha; a refused upload exits 1 with the server\'s reason', async () => {
    const folder = tempDir();
    write(folder, { 'login.yml': ruleFile('CLI login', { sinkKeys: ['high'] }), '.git/config': 'not really git' });
    const missing = await sync(folder, '--branch', 'main');
    expect(missing).toMatchObject({ status: 2, err: expect.stringMatching(/is not in a git work tree with a commit: pass --commit-sha/) });
    const done = await sync(folder, '--branch', 'main', '--commit-sha', 'build-42');
    expect(done.status).toBe(0);
    expect(done.out).toContain('synced build-42 to sync source team-rules (main): 1 created, 0 updated, 0 unchanged, 2 deleted\n');
    const refused = await sync(folder, '--branch', 'nope', '--commit-sha', 'x');
    expect(refused).toMatchObject({ status: 1, err: expect.stringMatching(/refused the upload \(404\): no sync source with push_key "team-rules" and branch "nope"/) });
  });
});

describe('vigil rules validate -d and vigil rules sync read the same files', () => {
  it('a header-less file with a top-level query_text is a rule to both: a local check fails where the sync would', async () => {
    const repo = tempDir();
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, {
      'rules/login.yml': ruleFile('CLI login', { sinkKeys: ['high'] }),
      'rules/noheader.yml': 'name: no header\ndescription: d\nquery_text: "a | |"\ntime_range_s: 60\nrun_frequency_s: 60\n',
      'rules/.draft.yml': ruleFile('CLI draft'),
      '.github/workflows/ci.yml': 'on: push\nquery_text: not a rule\n',
      'config/settings.yml': 'retries: 3\n',
    });
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'a rule without a header');
    const before = (await h.call('GET', '/v1/detection_rule?tenant_id=acme', key)).body;

    const local = await vigil('rules', 'validate', '-d', repo, '-r', '--json');
    expect(local.status).toBe(1);
    const checked = JSON.parse(local.out).files as { file_path: string; status: string; error?: string }[];
    const synced = await sync(repo, '--json');
    expect(synced.status).toBe(1);
    const answer = JSON.parse(synced.out);
    expect(answer.applied).toBe(false);
    const relativeTo = (path: string) => path.slice(repo.length + 1);
    expect(checked.map((f) => relativeTo(f.file_path))).toEqual(answer.files.map((f: { file_path: string }) => f.file_path));
    expect(checked.map((f) => f.status)).toEqual(['Valid', 'Invalid']);
    expect(checked[1]?.error).toMatch(/^query_text: /);
    expect(answer.files.map((f: { status: string }) => f.status)).toEqual(['Passed', 'Invalid']);
    expect((await h.call('GET', '/v1/detection_rule?tenant_id=acme', key)).body).toEqual(before);

    const text = await vigil('rules', 'validate', '-d', repo, '-r');
    const ignored = answer.ignored_files.map((f: { file_path: string; reason: string }) => `  ${join(repo, f.file_path)}: ${f.reason}`);
    expect(text.err).toBe(['skipped 3 YAML files that are not rule files, as a repository sync would (name them with -f to check them):', ...ignored, ''].join('\n'));
  });
});

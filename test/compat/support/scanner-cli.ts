/**
 * The published command-line tool, `scanner-cli` 0.1.1 (PyPI, 2026-05; `src/cli.py` and
 * `src/sync.py`), replayed on the SDK replica: its `validate`, `run-tests` and `sync` commands
 * read the same fields and decide the exit code the same way (any failure: exit 1). The files
 * are the text of `.yml` files that hold the schema header (`validate_and_read_file`).
 */
import { parse } from 'yaml';
import { NotFound } from './scanner-sdk-models.js';
import type { ScannerSdk, Severity } from './scanner-sdk.js';

export interface CliRun {
  readonly exitCode: 0 | 1;
  readonly lines: string[];
}

const schemaHeader = '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json';

function readable(files: Record<string, string>): [string, string][] {
  return Object.entries(files).filter(([path, text]) => /\.ya?ml$/.test(path) && text.includes(schemaHeader));
}

/** `scanner-cli validate`: OK (with the warning) or the error, per file. */
export async function cliValidate(sdk: ScannerSdk, files: Record<string, string>): Promise<CliRun> {
  const lines: string[] = [];
  let failed = false;
  for (const [path, text] of readable(files)) {
    try {
      const result = await sdk.validateYaml(text);
      if (result.is_valid) lines.push(result.warning ? `${path}: OK. Warning: ${result.warning}` : `${path}: OK`);
      else {
        failed = true;
        lines.push(`${path}: ${result.error}`);
      }
    } catch (error) {
      failed = true;
      lines.push(`${path}: ${String(error)}`);
    }
  }
  return { exitCode: failed ? 1 : 0, lines };
}

/** `scanner-cli run-tests`: validate, then `results.to_dict()`: each test `Passed` or not. */
export async function cliRunTests(sdk: ScannerSdk, files: Record<string, string>): Promise<CliRun> {
  const lines: string[] = [];
  let failed = false;
  for (const [path, text] of readable(files)) {
    lines.push(path);
    try {
      const validation = await sdk.validateYaml(text);
      if (!validation.is_valid) {
        failed = true;
        lines.push(`Validation error: ${validation.error}`);
        continue;
      }
      const { results } = await sdk.runYamlTests(text);
      if (Object.keys(results).length === 0) lines.push('No tests found');
      for (const [name, status] of Object.entries(results)) {
        if (status === 'Passed') lines.push(`${name}: OK`);
        else {
          failed = true;
          lines.push(`${name}: Test failed`);
        }
      }
    } catch (error) {
      failed = true;
      lines.push(String(error));
    }
  }
  return { exitCode: failed ? 1 : 0, lines };
}

/**
 * `scanner-cli sync --team-id T [--sync-config-file F]`: validates every file, then for each
 * looks its `sync_key` up (`get_by_sync_key`; NotFound: none) and updates or creates the rule
 * with the file's fields, `enabled` included, and the sink ids its `event_sink_keys` map to.
 */
export async function cliSync(sdk: ScannerSdk, files: Record<string, string>, teamId: string, syncConfig: { event_sink_keys?: Record<string, { sink_id: string }[]> } = {}): Promise<CliRun> {
  const lines: string[] = [];
  const rules: { path: string; rule: Record<string, any>; sinkIds: string[] }[] = [];
  for (const [path, text] of readable(files)) {
    try {
      const result = await sdk.validateYaml(text);
      if (!result.is_valid) {
        lines.push(`${path}: ${result.error}`);
        return { exitCode: 1, lines };
      }
      const rule = parse(text) as Record<string, any>;
      if (!rule.sync_key) return { exitCode: 1, lines: [...lines, `Error: sync_key not found in ${path}`] };
      const sinkIds = ((rule.event_sink_keys ?? []) as string[]).flatMap((key) => (syncConfig.event_sink_keys?.[key] ?? []).map((s) => s.sink_id));
      rules.push({ path, rule, sinkIds });
    } catch (error) {
      return { exitCode: 1, lines: [...lines, `${path}: ${String(error)}`] };
    }
  }
  for (const { path, rule, sinkIds } of rules) {
    try {
      let id: string | null = null;
      try {
        id = (await sdk.getRuleBySyncKey(rule.sync_key)).id;
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
      }
      const fields = {
        name: rule.name,
        description: rule.description,
        time_range_s: rule.time_range_s,
        run_frequency_s: rule.run_frequency_s,
        enabled: rule.enabled,
        severity: rule.severity as Severity,
        query_text: rule.query_text,
        event_sink_ids: sinkIds,
        sync_key: rule.sync_key,
      };
      if (id) {
        await sdk.updateRule(id, fields);
        lines.push(`${rule.sync_key}: Updated`);
      } else {
        await sdk.createRule({ ...fields, tenant_id: teamId });
        lines.push(`${rule.sync_key}: Created`);
      }
    } catch (error) {
      return { exitCode: 1, lines: [...lines, `Failed to sync file: ${path}`, `Error: ${String(error)}`] };
    }
  }
  return { exitCode: 0, lines };
}

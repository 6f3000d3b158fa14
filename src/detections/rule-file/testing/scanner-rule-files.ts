import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The public Scanner rule packs (339 files) kept outside the repository for their licence, at
 * `../shared/datasets/scanner-rules` beside the work tree. Tests that use them skip, saying so,
 * when the folder is absent.
 */
export const scannerRulesRoot = fileURLToPath(new URL('../../../../../shared/datasets/scanner-rules', import.meta.url));

export const scannerRulesPresent = existsSync(scannerRulesRoot);

/** Why a suite was skipped, for its title. */
export const scannerRulesNote = scannerRulesPresent ? scannerRulesRoot : `skipped: ${scannerRulesRoot} is absent`;

/** Every `.yml`/`.yaml` file under the root, by path relative to it, sorted. */
export function scannerRuleFiles(): { path: string; text: string }[] {
  if (!scannerRulesPresent) return [];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return /\.ya?ml$/.test(entry.name) ? [path] : [];
    });
  return walk(scannerRulesRoot)
    .sort()
    .map((path) => ({ path: relative(scannerRulesRoot, path), text: readFileSync(path, 'utf8') }));
}

/**
 * The files that are refused, with the reason (docs/rule-files.md lists them): `countdistinct`
 * yields `@q.uniq`, so `where @q.count > 1` names a column that does not exist and the rule
 * could never fire (query-language D21; docs/query-language.md).
 */
export const knownInvalidScannerRules: Readonly<Record<string, string>> = {
  'detection-rules-cisco-duo/rules/cisco_duo_login_failures_from_different_users.yml':
    "query_text: column '@q.count' does not exist after 'countdistinct' (columns: @q.uniq) at 13:11",
  'detection-rules-cisco-duo/rules/cisco_duo_multiple_users_deleted.yml': "query_text: column '@q.count' does not exist after 'countdistinct' (columns: @q.uniq) at 10:11",
  'detection-rules-sentinelone/rules/sentinelone_agent_uninstalled.yml': "query_text: column '@q.count' does not exist after 'countdistinct' (columns: @q.uniq) at 11:11",
};

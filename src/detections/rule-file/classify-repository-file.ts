/**
 * What a file of a rule repository is (docs/rule-sync.md, "Which files are rules"): a rule file,
 * YAML that is not a rule (listed with the reason), or anything else (not looked at). The one
 * definition used by a repository sync and by `vigil rules validate|test -d`, so a local check
 * reads exactly the files a sync will.
 */
export type RepositoryFileKind = { readonly kind: 'rule'; readonly text: string } | { readonly kind: 'ignored'; readonly reason: string } | { readonly kind: 'other' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Classifies a file by its path relative to the repository root (`/` separators) and, only when
 * the path allows a rule, its content: `read` is called at most once, so a caller can bound what
 * it inflates or reads. A rule file is named `*.yml`/`*.yaml` (any case), lies in no folder whose
 * name starts with `.` (`.github/workflows/*.yml` are CI files), is UTF-8 text, and either starts
 * with a `# schema:` comment (every Scanner rule file does) or has a top-level `query_text:` key
 * (docs/interface.md 2.5 makes the header optional, and a broken rule must fail rather than vanish).
 */
export function classifyRepositoryFile(path: string, read: () => Uint8Array): RepositoryFileKind {
  if (!/\.ya?ml$/i.test(path)) return { kind: 'other' };
  const segments = path.split('/');
  if (segments.slice(0, -1).some((folder) => folder.startsWith('.'))) return { kind: 'ignored', reason: 'in a hidden folder' };
  if (segments[segments.length - 1]?.startsWith('.')) return { kind: 'ignored', reason: 'a hidden file' };
  let text: string;
  try {
    text = utf8.decode(read());
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return { kind: 'ignored', reason: 'not UTF-8 text' };
  }
  if (!looksLikeRuleFile(text)) return { kind: 'ignored', reason: 'neither a "# schema:" first line nor a top-level query_text key' };
  return { kind: 'rule', text };
}

/** True for YAML text a repository takes as a rule: a `# schema:` first line or a top-level `query_text:` key. */
export function looksLikeRuleFile(text: string): boolean {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return /^#\s*schema\s*:/.test(firstLine) || /^query_text\s*:/m.test(text);
}

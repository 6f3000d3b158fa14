/**
 * The namespace of the columns every event carries (`@svc.datetime`, ...), and the other
 * spellings that stand for it: `@scnr` (query-language D1) and `@scanner`, the published
 * product's name for it (docs/compatibility.md). Queries, templates and ingest read them alike.
 */
export const systemNamespace = '@svc';
export const systemNamespaceAliases = ['@scnr', '@scanner'] as const;

/** True when `path` is `ns` itself or starts with `ns.` or `ns[`. */
export function isUnderNamespace(path: string, ns: string): boolean {
  if (!path.startsWith(ns)) return false;
  const next = path.charCodeAt(ns.length);
  return Number.isNaN(next) || next === 46 || next === 91;
}

/** `@scnr.x` and `@scanner.x` (also `…[`) as `@svc.x`; any other name unchanged. */
export function canonicalSystemName(name: string): string {
  for (const alias of systemNamespaceAliases) {
    if (isUnderNamespace(name, alias) && name.length > alias.length) return systemNamespace + name.slice(alias.length);
  }
  return name;
}

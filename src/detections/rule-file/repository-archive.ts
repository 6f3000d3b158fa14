import { PayloadTooLargeError, ValidationError, listZipEntries, readZipEntry, type ZipEntry } from '../../core/index.js';
import { classifyRepositoryFile } from './classify-repository-file.js';

/** Bounds on an uploaded repository archive (docs/rule-sync.md, "Limits"). */
export interface ArchiveLimits {
  /** Size of the zip itself (the API refuses larger uploads before reading them whole). */
  readonly maxArchiveBytes: number;
  /** Entries (files and directories) in the archive. */
  readonly maxEntries: number;
  /** Rule files in the archive: each is validated and its tests run. */
  readonly maxRuleFiles: number;
  /** Inflated size of one YAML file. */
  readonly maxFileBytes: number;
  /** Inflated size of every YAML file together: the archive's other files are never inflated. */
  readonly maxTotalBytes: number;
}

export const defaultArchiveLimits: ArchiveLimits = {
  maxArchiveBytes: 32 << 20,
  maxEntries: 20_000,
  maxRuleFiles: 2_000,
  maxFileBytes: 1 << 20,
  maxTotalBytes: 64 << 20,
};

/** A rule file of the archive: its path in the repository and its text. */
export interface ArchiveFile {
  readonly path: string;
  readonly text: string;
}

/** The rule files of a repository archive, and the YAML files that were not taken as rule files. */
export interface RepositoryArchive {
  readonly ruleFiles: ArchiveFile[];
  readonly ignored: { readonly path: string; readonly reason: string }[];
}

// A GitHub zipball holds everything under `<owner>-<repo>-<short sha>/`.
const zipballFolder = /^[^/]+-[0-9a-f]{7,40}\/$/i;

/**
 * The rule files of a zip of a repository, as `classifyRepositoryFile` decides (docs/rule-sync.md,
 * "Which files are rules"); only YAML entries are ever inflated. Paths are relative to the
 * repository root: a GitHub zipball's single top folder is dropped.
 */
export function readRepositoryArchive(zip: Uint8Array, limits: ArchiveLimits = defaultArchiveLimits): RepositoryArchive {
  if (zip.byteLength > limits.maxArchiveBytes) throw new PayloadTooLargeError(`the archive is larger than ${limits.maxArchiveBytes} bytes`, { field: 'file' });
  const entries = listZipEntries(zip, limits.maxEntries);
  const prefix = zipballPrefix(entries);
  const seen = new Set<string>();
  const ruleFiles: ArchiveFile[] = [];
  const ignored: { path: string; reason: string }[] = [];
  let inflated = 0;
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const path = repositoryPath(entry.name.slice(prefix.length));
    if (seen.has(path)) throw new ValidationError(`the archive holds ${path} twice`, { field: 'file' });
    seen.add(path);
    const kind = classifyRepositoryFile(path, () => {
      const content = readWithin(zip, entry, limits, inflated);
      inflated += content.byteLength;
      return content;
    });
    if (kind.kind === 'rule') ruleFiles.push({ path, text: kind.text });
    else if (kind.kind === 'ignored') ignored.push({ path, reason: kind.reason });
  }
  if (ruleFiles.length > limits.maxRuleFiles) {
    throw new PayloadTooLargeError(`the archive has ${ruleFiles.length} rule files, more than the ${limits.maxRuleFiles} allowed`, { field: 'file' });
  }
  ruleFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ruleFiles, ignored };
}

/** The entry's content within the per-file limit and what is left of the total one. */
function readWithin(zip: Uint8Array, entry: ZipEntry, limits: ArchiveLimits, inflatedSoFar: number): Uint8Array {
  const left = limits.maxTotalBytes - inflatedSoFar;
  try {
    return readZipEntry(zip, entry, Math.min(limits.maxFileBytes, left));
  } catch (error) {
    if (!(error instanceof PayloadTooLargeError) || left >= limits.maxFileBytes) throw error;
    throw new PayloadTooLargeError(`the YAML files of the archive inflate to more than ${limits.maxTotalBytes} bytes`, { field: 'file', cause: error });
  }
}

/** The folder every entry lies under, when it is a GitHub zipball's; else empty. */
function zipballPrefix(entries: readonly ZipEntry[]): string {
  const first = entries[0]?.name;
  if (first === undefined) return '';
  const folder = first.slice(0, first.indexOf('/') + 1);
  if (folder === '' || !zipballFolder.test(folder)) return '';
  return entries.every((entry) => entry.name.startsWith(folder)) ? folder : '';
}

/** A safe repository-relative path: no absolute paths, no `..`, `/` separators. */
function repositoryPath(name: string): string {
  const path = name.replaceAll('\\', '/');
  const segments = path.split('/');
  if (path.startsWith('/') || /^[a-z]:/i.test(path) || segments.some((s) => s === '..' || s === '.' || s === '')) {
    throw new ValidationError(`the archive holds an unsafe path ${JSON.stringify(name)}`, { field: 'file' });
  }
  return path;
}

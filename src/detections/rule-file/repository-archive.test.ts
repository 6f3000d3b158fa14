import { strToU8, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PayloadTooLargeError, ValidationError } from '../../core/index.js';
import { defaultArchiveLimits, readRepositoryArchive, type ArchiveLimits } from './repository-archive.js';

const header = '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json\n';
const rule = (name: string) => `${header}name: ${name}\nquery_text: x\n`;
const zip = (files: Record<string, string | Uint8Array>): Uint8Array =>
  zipSync(Object.fromEntries(Object.entries(files).map(([path, content]) => [path, typeof content === 'string' ? strToU8(content) : content])) as Zippable);
const limits = (overrides: Partial<ArchiveLimits>): ArchiveLimits => ({ ...defaultArchiveLimits, ...overrides });

const tooLarge = (message: string) => new PayloadTooLargeError(message, { field: 'file' });

/** Sets the uncompressed size the central directory declares for every entry. */
function declareSize(archive: Uint8Array, size: number): Uint8Array {
  const out = archive.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 4 <= out.length; at++) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
  return out;
}

describe('readRepositoryArchive', () => {
  it('takes YAML files with a schema line or a top-level query_text, outside hidden folders, in path order', () => {
    const archive = readRepositoryArchive(
      zip({
        'rules/b.yml': rule('b'),
        'rules/a.yaml': 'name: a\nquery_text: |-\n  x\n',
        'README.md': '# rules',
        '.github/workflows/ci.yml': 'on: push\nquery_text: looks like one\n',
        'config/settings.yml': 'retries: 3\n',
        'notes.txt.yml': '  query_text: indented, not top level\n',
      }),
    );
    expect(archive.ruleFiles).toEqual([
      { path: 'rules/a.yaml', text: 'name: a\nquery_text: |-\n  x\n' },
      { path: 'rules/b.yml', text: rule('b') },
    ]);
    expect(archive.ignored).toEqual([
      { path: '.github/workflows/ci.yml', reason: 'in a hidden folder' },
      { path: 'config/settings.yml', reason: 'neither a "# schema:" first line nor a top-level query_text key' },
      { path: 'notes.txt.yml', reason: 'neither a "# schema:" first line nor a top-level query_text key' },
    ]);
  });

  it('drops the single top folder of a GitHub zipball, and only that', () => {
    const zipball = readRepositoryArchive(zip({ 'acme-detections-1a2b3c4/rules/a.yml': rule('a'), 'acme-detections-1a2b3c4/README.md': '' }));
    expect(zipball.ruleFiles.map((f) => f.path)).toEqual(['rules/a.yml']);
    const plain = readRepositoryArchive(zip({ 'rules/a.yml': rule('a'), 'rules/b.yml': rule('b') }));
    expect(plain.ruleFiles.map((f) => f.path)).toEqual(['rules/a.yml', 'rules/b.yml']);
  });

  it('reads stored and deflated entries, and files that are not UTF-8 are ignored', () => {
    const stored = zipSync({ 'a.yml': [strToU8(rule('a')), { level: 0 }], 'b.yml': new Uint8Array([0xff, 0xfe, 0x00]) });
    const archive = readRepositoryArchive(stored);
    expect(archive.ruleFiles).toEqual([{ path: 'a.yml', text: rule('a') }]);
    expect(archive.ignored).toEqual([{ path: 'b.yml', reason: 'not UTF-8 text' }]);
  });

  it('refuses what is not a zip, damaged entries and unsafe paths', () => {
    expect(() => readRepositoryArchive(strToU8('PK not really'))).toThrow(/^file is not a valid zip archive: no end of central directory/);
    const damaged = zip({ 'a.yml': rule('a') });
    const at = damaged.length - 22 - 46 - 10; // inside the deflated data
    damaged[at] = (damaged[at] ?? 0) ^ 0xff;
    expect(() => readRepositoryArchive(damaged)).toThrow(ValidationError);
    expect(() => readRepositoryArchive(zip({ '../escape.yml': rule('a') }))).toThrow(/unsafe path "..\/escape.yml"/);
  });

  it('bounds the entries, the rule files, and what a YAML file inflates to, whatever the archive declares', () => {
    const many = zip(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.txt`, ''])));
    expect(() => readRepositoryArchive(many, limits({ maxEntries: 10 }))).toThrow(tooLarge('the archive has 11 entries, more than the 10 allowed'));
    const rules = zip({ 'a.yml': rule('a'), 'b.yml': rule('b'), 'c.yml': rule('c') });
    expect(() => readRepositoryArchive(rules, limits({ maxRuleFiles: 2 }))).toThrow(/3 rule files, more than the 2 allowed/);
    const bomb = zip({ 'bomb.yml': `${header}${'a'.repeat(4 << 20)}` });
    expect(bomb.length).toBeLessThan(64 << 10);
    expect(() => readRepositoryArchive(bomb)).toThrow(tooLarge(`bomb.yml inflates to more than ${1 << 20} bytes`));
    // A bomb that lies about its size is cut off at the limit all the same.
    expect(() => readRepositoryArchive(declareSize(bomb, 100))).toThrow(PayloadTooLargeError);
    expect(() => readRepositoryArchive(declareSize(zip({ 'a.yml': rule('a') }), 3))).toThrow(/a.yml does not match its declared size and checksum/);
    const several = zip({ 'a.yml': `${header}${'a'.repeat(600)}`, 'b.yml': `${header}${'b'.repeat(600)}` });
    expect(() => readRepositoryArchive(several, limits({ maxTotalBytes: 1000 }))).toThrow(/the YAML files of the archive inflate to more than 1000 bytes/);
  });
});

import { describe, expect, it } from 'vitest';
import { classifyRepositoryFile, looksLikeRuleFile } from './classify-repository-file.js';

const header = '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json\n';
const bytes = (text: string) => () => new TextEncoder().encode(text);
const notRule = { kind: 'ignored', reason: 'neither a "# schema:" first line nor a top-level query_text key' };

describe('classifyRepositoryFile', () => {
  it.each([
    ['rules/a.yml', `${header}name: a\n`, { kind: 'rule', text: `${header}name: a\n` }],
    ['rules/noheader.YAML', 'name: n\nquery_text: "a | |"\n', { kind: 'rule', text: 'name: n\nquery_text: "a | |"\n' }],
    ['config/settings.yml', 'retries: 3\n', notRule],
    ['.github/workflows/ci.yml', 'query_text: looks like one\n', { kind: 'ignored', reason: 'in a hidden folder' }],
    ['rules/.draft.yml', `${header}name: d\n`, { kind: 'ignored', reason: 'a hidden file' }],
    ['README.md', 'query_text: x\n', { kind: 'other' }],
    ['rules/a.yml.bak', `${header}name: a\n`, { kind: 'other' }],
  ])('%s → %j', (path, text, expected) => expect(classifyRepositoryFile(path, bytes(text))).toEqual(expected));

  it('reads only the YAML files it may take, once, and ignores text that is not UTF-8', () => {
    let reads = 0;
    const read = () => {
      reads++;
      return new Uint8Array([0xff, 0xfe, 0x00]);
    };
    expect(classifyRepositoryFile('notes.txt', read)).toEqual({ kind: 'other' });
    expect(classifyRepositoryFile('.hidden/a.yml', read)).toEqual({ kind: 'ignored', reason: 'in a hidden folder' });
    expect(reads).toBe(0);
    expect(classifyRepositoryFile('a.yml', read)).toEqual({ kind: 'ignored', reason: 'not UTF-8 text' });
    expect(reads).toBe(1);
  });

  it('lets a failure to read through: only undecodable text is a reason to ignore', () => {
    const failing = () => {
      throw new RangeError('too large');
    };
    expect(() => classifyRepositoryFile('a.yml', failing)).toThrow(RangeError);
  });
});

describe('looksLikeRuleFile', () => {
  it.each([
    [header + 'name: x\n', true],
    ['\uFEFF# schema: whatever\n', true],
    ['name: x\nquery_text: y\n', true],
    ['# just a comment\nname: x\n', false],
    ['items:\n  - query_text: nested\n', false],
  ])('%j → %s', (text, expected) => expect(looksLikeRuleFile(text)).toBe(expected));
});

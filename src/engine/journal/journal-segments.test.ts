import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { frameOf, readFrames, SegmentDirectory, SegmentFile } from './journal-segments.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'vigil-journal-segments-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const framed = (...payloads: string[]) => Buffer.concat(payloads.flatMap((text) => frameOf(Buffer.from(text))));

describe('journal frames', () => {
  it('read back in order', () => {
    expect(readFrames(framed('one', '', 'three'))).toEqual({ records: [Buffer.from('one'), Buffer.from(''), Buffer.from('three')], damage: null });
  });

  it('stop at a record cut short, keeping those before it', () => {
    const bytes = framed('one', 'two');
    for (const cut of [bytes.length - 1, bytes.length - 4, framed('one').length + 3]) {
      const read = readFrames(bytes.subarray(0, cut));
      expect(read.records).toEqual([Buffer.from('one')]);
      expect(read.damage).toMatchObject({ kind: 'cut', message: expect.stringMatching(/cut short/) });
    }
  });

  it('stop at a record whose bytes changed', () => {
    const bytes = framed('one', 'two', 'three');
    const at = framed('one').length;
    bytes.writeUInt8(bytes.readUInt8(at + 9) ^ 1, at + 9);
    expect(readFrames(bytes)).toEqual({ records: [Buffer.from('one')], damage: { kind: 'checksum', message: `the record at byte ${at} fails its checksum` } });
  });
});

describe('a segment file', () => {
  it('holds concurrent appends whole and in order, owner-only', async () => {
    const directory = new SegmentDirectory(join(root, 'journal'));
    const file = new SegmentFile(directory.pathOf(7), directory.path);
    const payloads = Array.from({ length: 50 }, (_, i) => 'x'.repeat(i * 100));
    await Promise.all(payloads.map((payload) => file.append(frameOf(Buffer.from(payload)))));
    await file.close();
    expect(readFrames(readFileSync(directory.pathOf(7))).records.map(String)).toEqual(payloads);
    expect(statSync(directory.pathOf(7)).mode & 0o777).toBe(0o600);
    expect(statSync(directory.path).mode & 0o777).toBe(0o700);
  });

  it('is found by the next run with its number, oldest first; other files are not segments', async () => {
    const directory = new SegmentDirectory(join(root, 'journal'));
    writeFileSync(directory.pathOf(12), framed('b'));
    writeFileSync(directory.pathOf(3), framed('a', 'torn').subarray(0, -2));
    writeFileSync(join(directory.path, 'set-aside.records'), framed('kept'));
    writeFileSync(join(directory.path, `damaged-${'0'.repeat(11)}1.journal`), framed('kept'));
    const stored = [...directory.stored()];
    expect(stored.map((segment) => [segment.number, segment.records.map(String), segment.damage])).toEqual([
      [3, ['a'], { kind: 'cut', message: 'the record at byte 9 is cut short' }],
      [12, ['b'], null],
    ]);
  });
});

import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8ChunkDecoder } from './utf8-chunk-decoder.js';

/** The text a plain StringDecoder makes of the chunks: the oracle. */
function oracle(chunks: readonly Buffer[]): string {
  const decoder = new StringDecoder('utf8');
  return chunks.map((chunk) => decoder.write(chunk)).join('') + decoder.end();
}

function decoded(chunks: readonly Buffer[]): { text: string; pieces: string[] } {
  const decoder = new Utf8ChunkDecoder();
  const pieces = [...chunks.flatMap((chunk) => [...decoder.write(chunk)]), decoder.end()].filter((piece) => piece !== '');
  return { text: pieces.join(''), pieces };
}

/** Cuts bytes into chunks at the given (sorted, deduplicated) offsets. */
function cut(bytes: Buffer, offsets: readonly number[]): Buffer[] {
  const at = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    chunks.push(bytes.subarray(from, to));
    from = to;
  }
  return chunks;
}

const line = fc.oneof({ weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 300 }) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) });

describe('Utf8ChunkDecoder', () => {
  it('gives runs of whole lines of at most 64 KiB (strings V8 makes in the young generation); a longer line is a run of its own', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(100)}"}`);
    const long = 'y'.repeat(100_000);
    const bytes = Buffer.from([...lines.slice(0, 1500), long, ...lines.slice(1500)].join('\n') + '\n');
    const { text, pieces } = decoded([bytes]);
    expect(text).toBe(bytes.toString());
    expect(pieces.filter((piece) => piece.length > 64 * 1024)).toEqual([long + '\n']);
    expect(pieces.every((piece) => piece.endsWith('\n'))).toBe(true);
    expect(pieces.length).toBeGreaterThan(6);
  });

  it('decodes any chunking of UTF-8 lines as a StringDecoder does', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 80 }), fc.array(fc.nat(), { maxLength: 12 }), (lines, offsets) => {
        const chunks = cut(Buffer.from(lines.join('\n'), 'utf8'), offsets);
        expect(decoded(chunks).text).toBe(oracle(chunks));
      }),
      { numRuns: 400 },
    );
  });

  it('turns invalid bytes into U+FFFD exactly as a StringDecoder does, wherever the chunks are cut', () => {
    const byte = fc.oneof(fc.constant(0x0a), fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 20_000 }), fc.array(fc.nat(), { maxLength: 12 }), (bytes, offsets) => {
        const chunks = cut(Buffer.from(bytes), offsets);
        expect(decoded(chunks).text).toBe(oracle(chunks));
      }),
      { numRuns: 300 },
    );
  });

  it('copies the ASCII lines around one non-ASCII line as they are, decoding only the lines near it', () => {
    const ascii = Array.from({ length: 2000 }, (_, i) => `{"n":${i},"msg":"plain ascii text"}`);
    ascii[1500] = '{"msg":"caf\u00e9 \u{1F600}"}';
    const bytes = Buffer.from(`${ascii.join('\n')}\n`, 'utf8');
    const { text, pieces } = decoded([bytes]);
    expect(text).toBe(bytes.toString('utf8'));
    // The run holding line 1500 is the only one decoded as UTF-8: at most 4 KiB of it.
    const nonAscii = pieces.filter((piece) => /[^\x00-\x7f]/.test(piece));
    expect(nonAscii).toHaveLength(1);
    expect(Buffer.byteLength(nonAscii[0] as string)).toBeLessThanOrEqual(4096);
    expect(pieces.length).toBeGreaterThan(2);
  });
});

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IngestError, PayloadTooLargeError } from '../core/index.js';
import { InputDecoder, type InputChunk } from './input-decoder.js';

async function* chunksOf(...chunks: InputChunk[]): AsyncGenerator<InputChunk> {
  for (const chunk of chunks) yield chunk;
}

/** Splits bytes into pieces of `size` (1 exercises every boundary). */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function decodeAll(decoder: InputDecoder): Promise<string> {
  let text = '';
  for await (const chunk of decoder.text()) text += chunk;
  return text;
}

describe('InputDecoder', () => {
  it('passes plain bytes through as UTF-8 text, counting bytes', async () => {
    const bytes = Buffer.from('{"a":"é"}\n');
    const decoder = new InputDecoder(chunksOf(bytes));
    expect(await decodeAll(decoder)).toBe('{"a":"é"}\n');
    expect(decoder).toMatchObject({ gzip: false, bytesRead: 11, decodedBytes: 11 });
  });

  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = Buffer.from('ключ 🚀 值\n');
    expect(await decodeAll(new InputDecoder(chunksOf(...pieces(bytes, 1))))).toBe('ключ 🚀 值\n');
  });

  it('turns invalid UTF-8 into U+FFFD instead of failing', async () => {
    expect(await decodeAll(new InputDecoder(chunksOf(Buffer.from([0x61, 0xff, 0x62]))))).toBe('a\uFFFDb');
  });

  it('accepts strings and plain arrays of chunks', async () => {
    const decoder = new InputDecoder(['{"a":1}\n', '{"b":"é"}']);
    expect(await decodeAll(decoder)).toBe('{"a":1}\n{"b":"é"}');
    expect(decoder.decodedBytes).toBe(18);
  });

  it('recognises gzip by its magic bytes even when they arrive one byte at a time', async () => {
    const compressed = gzipSync('{"a":1}\n{"a":2}\n');
    const decoder = new InputDecoder(chunksOf(...pieces(compressed, 1)));
    expect(await decodeAll(decoder)).toBe('{"a":1}\n{"a":2}\n');
    expect(decoder).toMatchObject({ gzip: true, bytesRead: compressed.length, decodedBytes: 16 });
  });

  it('reads the second magic byte from the next chunk: 0x1f then a letter is text', async () => {
    const decoder = new InputDecoder(chunksOf(Buffer.from([0x1f]), Buffer.from('A\n')));
    expect(await decodeAll(decoder)).toBe('\u001fA\n');
    expect(decoder.gzip).toBe(false);
  });

  it('reads concatenated gzip members one after another', async () => {
    const members = Buffer.concat([gzipSync('one\n'), gzipSync('two\n')]);
    expect(await decodeAll(new InputDecoder(chunksOf(members)))).toBe('one\ntwo\n');
  });

  it('delivers the text before a corruption, then records it instead of throwing', async () => {
    const compressed = gzipSync('{"a":1}\n'.repeat(10_000));
    const truncated = compressed.subarray(0, Math.floor(compressed.length / 2));
    const decoder = new InputDecoder(chunksOf(...pieces(truncated, 64)));
    const text = await decodeAll(decoder);
    expect(decoder.corruption).toBeInstanceOf(IngestError);
    expect(decoder.corruption?.message).toMatch(/^gzip stream is corrupt after \d+ decoded bytes: unexpected end of file$/);
    expect('{"a":1}\n'.repeat(10_000).startsWith(text)).toBe(true);
  });

  it('delivers every member before garbage after the last one, counting its decoded bytes', async () => {
    const text = '{"ga":1}\n{"ga":2}\n'.repeat(3000);
    for (const size of [1, 7, 64, 100_000]) {
      const decoder = new InputDecoder(chunksOf(...pieces(Buffer.concat([gzipSync(text), Buffer.from('GARBAGE')]), size)));
      expect(await decodeAll(decoder)).toBe(text);
      expect(decoder.corruption?.message).toBe(`gzip stream is corrupt after ${text.length} decoded bytes: the bytes after gzip member 1 are not gzip (incorrect header check)`);
    }
  });

  it('reads zero bytes after the last member as padding, as gunzip does', async () => {
    const decoder = new InputDecoder(chunksOf(Buffer.concat([gzipSync('a\n'), gzipSync('b\n'), Buffer.alloc(512)])));
    expect(await decodeAll(decoder)).toBe('a\nb\n');
    expect(decoder.corruption).toBeNull();
  });

  it('checks each member against its trailer (CRC-32 and length)', async () => {
    const damaged = Buffer.from(gzipSync('hello\n'));
    damaged[damaged.length - 8]! ^= 1;
    const decoder = new InputDecoder(chunksOf(damaged));
    expect(await decodeAll(decoder)).toBe('hello\n');
    expect(decoder.corruption?.message).toBe('gzip stream is corrupt after 6 decoded bytes: incorrect data check');
  });

  it('names a damaged header', async () => {
    const damaged = Buffer.from(gzipSync('hello'));
    damaged[3] = 0xff; // reserved flag bits
    const decoder = new InputDecoder(chunksOf(damaged));
    await decodeAll(decoder);
    expect(decoder.corruption?.message).toMatch(/gzip stream is corrupt after 0 decoded bytes/);
  });

  it('refuses more decoded bytes than maxBytes, counting after decompression', async () => {
    const compressed = gzipSync('x'.repeat(100_000));
    const decoder = new InputDecoder(chunksOf(compressed), 50_000);
    await expect(decodeAll(decoder)).rejects.toThrow(new PayloadTooLargeError('request body exceeds 50000 bytes'));
    expect(compressed.length).toBeLessThan(50_000);
  });

  it('accepts exactly maxBytes', async () => {
    expect(await decodeAll(new InputDecoder(chunksOf('abc'), 3))).toBe('abc');
  });

  it('handles an empty source', async () => {
    const decoder = new InputDecoder(chunksOf());
    expect(await decodeAll(decoder)).toBe('');
    expect(decoder).toMatchObject({ gzip: false, bytesRead: 0, decodedBytes: 0 });
  });

  it('passes errors of the source through', async () => {
    async function* failing(): AsyncGenerator<InputChunk> {
      yield Buffer.from([0x1f, 0x8b]);
      throw new Error('connection reset');
    }
    await expect(decodeAll(new InputDecoder(failing()))).rejects.toThrow('connection reset');
  });

  it('stops the source when the reader stops early', async () => {
    let closed = false;
    async function* endless(): AsyncGenerator<InputChunk> {
      try {
        for (;;) yield 'line\n';
      } finally {
        closed = true;
      }
    }
    for await (const _chunk of new InputDecoder(endless()).text()) break;
    expect(closed).toBe(true);
  });
});

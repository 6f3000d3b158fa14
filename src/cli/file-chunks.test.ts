import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileChunks, type FileChunk } from './file-chunks.js';

async function* bytes(data: Buffer, piece = 7): AsyncGenerator<Buffer> {
  for (let at = 0; at < data.length; at += piece) yield data.subarray(at, at + piece);
}

async function chunks(data: Buffer, maxBytes: number, piece?: number): Promise<{ chunks: FileChunk[]; gzip: boolean | null; error: unknown }> {
  const out: FileChunk[] = [];
  let gzip: boolean | null = null;
  try {
    for await (const chunk of fileChunks(bytes(data, piece), maxBytes, (g) => (gzip = g))) out.push(chunk);
    return { chunks: out, gzip, error: null };
  } catch (error) {
    return { chunks: out, gzip, error };
  }
}

const ndjson = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => JSON.stringify({ n: i + 1 })).join('\n') + '\n');

describe('fileChunks', () => {
  it('cuts whole lines into pieces of at most maxBytes, numbering lines as in the file', async () => {
    const data = ndjson(30); // 8 to 9 bytes a line
    const { chunks: out } = await chunks(data, 40);
    expect(Buffer.concat(out.map((c) => c.bytes)).equals(data)).toBe(true);
    expect(out.every((c) => c.bytes.length <= 40 && c.bytes[c.bytes.length - 1] === 0x0a && c.format === 'ndjson')).toBe(true);
    expect(out[0]?.firstLine).toBe(1);
    for (let i = 1; i < out.length; i++) expect(out[i]?.firstLine).toBe((out[i - 1]?.lastLine ?? 0) + 1);
    expect(out.at(-1)?.lastLine).toBe(30);
    expect(out[1]?.bytes.toString().split('\n')[0]).toBe(JSON.stringify({ n: out[1]?.firstLine }));
  });

  it('cuts the same input at the same places with the same ids, however it is read, plain or gzip', async () => {
    const data = ndjson(50);
    const a = await chunks(data, 64, 5);
    const b = await chunks(gzipSync(data), 64, 3);
    expect(b.gzip).toBe(true);
    expect(a.gzip).toBe(false);
    expect(b.chunks.map((c) => c.ingestId)).toEqual(a.chunks.map((c) => c.ingestId));
    expect(new Set(a.chunks.map((c) => c.ingestId)).size).toBe(a.chunks.length);
  });

  it('gives a line longer than maxBytes a piece of its own, and counts a last line without a newline', async () => {
    const data = Buffer.from(`{"a":1}\n{"long":"${'x'.repeat(100)}"}\n{"b":2}`);
    const { chunks: out } = await chunks(data, 20);
    expect(out.map((c) => [c.firstLine, c.lastLine])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it('reads text as text in every piece, even lines that look like JSON', async () => {
    const data = Buffer.from('Nov 20 host sshd: hi\n{"a":1}\nplain\n');
    const { chunks: out } = await chunks(data, 16);
    expect(out.map((c) => [c.format, c.bytes.toString()])).toEqual([
      ['text', 'Nov 20 host sshd: hi\n'],
      ['text', '{"a":1}\nplain\n'],
    ]);
  });

  it("keeps a JSON array or a pretty-printed document whole, read by ingest's own detection", async () => {
    const array = Buffer.from(
      JSON.stringify(
        Array.from({ length: 20 }, (_, n) => ({ n })),
        null,
        2,
      ),
    );
    const { chunks: out } = await chunks(array, 30);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ format: 'auto', firstLine: 1 });
    const pretty = Buffer.from('{\n  "Records": [\n    {"a": 1}\n  ]\n}\n');
    expect((await chunks(pretty, 10)).chunks.map((c) => c.format)).toEqual(['auto']);
  });

  it('reads NDJSON whose first line is cut short as NDJSON', async () => {
    const { chunks: out } = await chunks(Buffer.from('{"cut": \n{"a":1}\n{"b":2}\n'), 12);
    expect(out.every((c) => c.format === 'ndjson')).toBe(true);
  });

  it('yields the whole lines before gzip damage, then fails naming it', async () => {
    const gz = gzipSync(ndjson(2000));
    const { chunks: out, error } = await chunks(gz.subarray(0, Math.floor(gz.length / 2)), 1000);
    expect(String(error)).toMatch(/gzip stream is corrupt/);
    expect(out.length).toBeGreaterThan(0);
    const text = Buffer.concat(out.map((c) => c.bytes)).toString();
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .every((line, i) => line === JSON.stringify({ n: i + 1 })),
    ).toBe(true);
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickHouseHttpClient, ClickHouseHttpError } from './clickhouse-http-client.js';

// The wire shape of the HTTP adapter, against a stand-in that records requests and answers
// like the ClickHouse HTTP interface. The behaviour against a real server is the engine
// contract in clickhouse-engine.test.ts.
interface Recorded {
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let server: Server;
let base: string;
const requests: Recorded[] = [];
let answer: (request: Recorded) => { status: number; headers?: Record<string, string>; chunks: string[] };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const recorded = { url: new URL(req.url ?? '/', 'http://stand-in'), headers: req.headers, body };
      requests.push(recorded);
      const { status, headers, chunks } = answer(recorded);
      res.writeHead(status, headers);
      for (const chunk of chunks) res.write(chunk);
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
});

describe('ClickHouseHttpClient', () => {
  it('posts the SQL with the database, format and credentials as headers (never in the URL)', async () => {
    answer = () => ({ status: 200, chunks: ['{"data":[]}'] });
    const client = new ClickHouseHttpClient({ url: `http://ann:s%40cret@${base.slice(7)}/?database=events` });
    expect(await client.send('SELECT 1', { format: 'JSON' })).toBe('{"data":[]}');
    const request = requests.at(-1)!;
    expect(request.body).toBe('SELECT 1');
    expect(request.url.searchParams.get('database')).toBe('events');
    expect(request.url.searchParams.get('wait_end_of_query')).toBe('1');
    expect(request.headers['x-clickhouse-format']).toBe('JSON');
    expect(request.headers['x-clickhouse-user']).toBe('ann');
    expect(request.headers['x-clickhouse-key']).toBe('s@cret');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('sends an insert payload as the body, with the statement and settings as parameters', async () => {
    answer = () => ({ status: 200, chunks: [] });
    const client = new ClickHouseHttpClient({ url: base, database: 'db2' });
    await client.send('INSERT INTO logs FORMAT JSONEachRow', { body: '{"a":1}\n{"a":2}', settings: { input_format_json_read_objects_as_strings: 1 } });
    const request = requests.at(-1)!;
    expect(request.url.searchParams.get('query')).toBe('INSERT INTO logs FORMAT JSONEachRow');
    expect(request.url.searchParams.get('input_format_json_read_objects_as_strings')).toBe('1');
    expect(request.url.searchParams.get('database')).toBe('db2');
    expect(request.body).toBe('{"a":1}\n{"a":2}');
  });

  it('turns an error status into ClickHouseHttpError with the server’s code and message', async () => {
    answer = () => ({
      status: 500,
      headers: { 'X-ClickHouse-Exception-Code': '159' },
      chunks: ['Code: 159. DB::Exception: Timeout exceeded. (TIMEOUT_EXCEEDED)\n'],
    });
    const error = await new ClickHouseHttpClient({ url: base }).send('SELECT 1', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClickHouseHttpError);
    expect(error).toMatchObject({ clickhouseCode: 159, message: 'Code: 159. DB::Exception: Timeout exceeded. (TIMEOUT_EXCEEDED)' });
  });

  it('streams complete lines across chunk boundaries', async () => {
    answer = () => ({ status: 200, chunks: ['{"n":"1"}\n{"n', '":"2"}\n', '{"n":"3"}'] });
    const batches: string[][] = [];
    for await (const lines of new ClickHouseHttpClient({ url: base }).streamLines('SELECT n', { format: 'JSONEachRow' })) batches.push(lines);
    expect(batches.flat()).toEqual(['{"n":"1"}', '{"n":"2"}', '{"n":"3"}']);
  });

  it('reports an exception the server appends mid-stream', async () => {
    answer = () => ({ status: 200, chunks: ['{"n":"1"}\n', 'Code: 394. DB::Exception: Query was cancelled. (QUERY_WAS_CANCELLED)\n'] });
    const consume = async () => {
      for await (const lines of new ClickHouseHttpClient({ url: base }).streamLines('SELECT n', {})) void lines;
    };
    await expect(consume()).rejects.toMatchObject({ clickhouseCode: 394 });
  });
});

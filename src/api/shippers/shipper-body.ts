import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import snappy from 'snappyjs';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../core/index.js';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/**
 * Reads a shipper's request body whole, bounded: at most `maxBytes` as sent and, once decoded
 * (`Content-Encoding: gzip`/`deflate`, or snappy when `snappy` is set, as Loki's protobuf pushes
 * are), at most `maxBytes` decoded; PayloadTooLargeError past either. Shipper requests are
 * batches of a few MB, so whole bodies keep each protocol's decoding simple; the bound keeps
 * memory in check.
 */
export async function readShipperBody(request: FastifyRequest, maxBytes: number, options: { readonly snappy?: boolean } = {}): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(`request body exceeds ${maxBytes} bytes`);
  const raw = await readAll((request.body ?? request.raw) as Readable | Buffer | undefined, maxBytes);
  const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  let decoded: Buffer;
  try {
    switch (encoding) {
      case 'identity':
      case '':
        decoded = raw;
        break;
      case 'gzip':
      case 'x-gzip':
        decoded = await gunzipAsync(raw, { maxOutputLength: maxBytes });
        break;
      case 'deflate':
        decoded = await inflateAsync(raw, { maxOutputLength: maxBytes });
        break;
      case 'snappy':
        decoded = unsnappy(raw, maxBytes);
        break;
      default:
        throw new UnsupportedMediaTypeError(`unsupported Content-Encoding ${JSON.stringify(encoding.slice(0, 40))}: send identity, gzip or deflate`);
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PayloadTooLargeError(`request body exceeds ${maxBytes} bytes once decoded`);
    if (error instanceof UnsupportedMediaTypeError || error instanceof PayloadTooLargeError) throw error;
    throw new ValidationError(`the body is not valid ${encoding}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return options.snappy && encoding !== 'snappy' ? unsnappy(decoded, maxBytes) : decoded;
}

/** Snappy's block format (Loki's protobuf pushes), refusing a body that claims to decode past the bound. */
function unsnappy(body: Buffer, maxBytes: number): Buffer {
  try {
    return Buffer.from(snappy.uncompress(body, maxBytes));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/too big/.test(message)) throw new PayloadTooLargeError(`request body exceeds ${maxBytes} bytes once decoded`);
    throw new ValidationError(`the body is not snappy-compressed: ${message}`);
  }
}

/**
 * The whole body, or PayloadTooLargeError past `maxBytes`. The rest of an oversized body is read
 * and dropped (up to ten times the limit, then the connection is cut), so the 413 reaches the
 * client and its connection stays usable.
 */
function readAll(body: Readable | Buffer | undefined, maxBytes: number): Promise<Buffer> {
  if (body === undefined) return Promise.resolve(Buffer.alloc(0));
  if (Buffer.isBuffer(body)) return Promise.resolve(body);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let overflow = false;
    body.on('data', (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += buffer.length;
      if (overflow) {
        if (total > 10 * maxBytes) body.destroy();
        return;
      }
      if (total > maxBytes) {
        overflow = true;
        chunks.length = 0;
        reject(new PayloadTooLargeError(`request body exceeds ${maxBytes} bytes`));
        return;
      }
      chunks.push(buffer);
    });
    body.on('end', () => {
      if (!overflow) resolve(Buffer.concat(chunks, total));
    });
    body.on('error', reject);
  });
}

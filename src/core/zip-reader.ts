import { inflateRawSync } from 'node:zlib';
import { crc32 } from './crc32.js';
import { PayloadTooLargeError, ValidationError } from './errors.js';

/**
 * Reads zip archives from memory, bounded against zip bombs. Written here rather than taken from a
 * zip library because the bound has to hold while inflating: libraries size the output from the
 * sizes the archive declares (which an attacker chooses) and decode the whole entry, whereas
 * zlib's `maxOutputLength` stops at the limit whatever the archive claims. Only what the caller
 * asks for is inflated; the rest of the archive is never decompressed.
 */

/** One file or directory of the central directory, as declared (sizes are checked on reading). */
export interface ZipEntry {
  /** The name as stored, `/`-separated; directories end with `/`. */
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
}

const endOfCentralDirectory = 0x06054b50;
const centralDirectoryHeader = 0x02014b50;
const localFileHeader = 0x04034b50;
const zip64Locator = 0x07064b50;
const utf8 = new TextDecoder('utf-8');

/** The entries of an archive; ValidationError when it is not a readable zip, PayloadTooLargeError beyond `maxEntries`. */
export function listZipEntries(zip: Uint8Array, maxEntries: number): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if ((end >= 20 && view.getUint32(end - 20, true) === zip64Locator) || count === 0xffff || directoryOffset === 0xffffffff) {
    throw new ValidationError('zip64 archives are not supported: the archive is too large anyway', { field: 'file' });
  }
  if (count > maxEntries) throw new PayloadTooLargeError(`the archive has ${count} entries, more than the ${maxEntries} allowed`, { field: 'file' });
  if (directoryOffset + directorySize > end) throw notZip('its central directory lies outside the archive');
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== centralDirectoryHeader) throw notZip(`entry ${i + 1} of the central directory is damaged`);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > end) throw notZip(`entry ${i + 1} of the central directory is damaged`);
    entries.push({
      name: utf8.decode(zip.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The content of one file entry, inflated to at most `maxBytes`. PayloadTooLargeError beyond it
 * (whatever size the entry declares); ValidationError when the entry is encrypted, uses another
 * method than stored or deflate, or does not match its declared size and checksum.
 */
export function readZipEntry(zip: Uint8Array, entry: ZipEntry, maxBytes: number): Uint8Array {
  const tooLarge = () => new PayloadTooLargeError(`${entry.name} inflates to more than ${maxBytes} bytes`, { field: 'file' });
  if (entry.flags & 1) throw new ValidationError(`${entry.name} is encrypted`, { field: 'file' });
  if (entry.size > maxBytes) throw tooLarge();
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.byteLength || view.getUint32(at, true) !== localFileHeader) throw notZip(`the local header of ${entry.name} is damaged`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > zip.byteLength) throw notZip(`${entry.name} runs past the end of the archive`);
  const data = zip.subarray(start, start + entry.compressedSize);
  let content: Uint8Array;
  if (entry.method === 0) {
    content = data;
  } else if (entry.method === 8) {
    try {
      content = inflateRawSync(data, { maxOutputLength: maxBytes });
    } catch (cause) {
      if ((cause as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw notZip(`${entry.name} does not inflate`, cause);
    }
  } else {
    throw new ValidationError(`${entry.name} uses compression method ${entry.method}; only stored and deflate are supported`, { field: 'file' });
  }
  if (content.byteLength > maxBytes) throw tooLarge();
  if (content.byteLength !== entry.size || crc32(content) !== entry.crc) throw notZip(`${entry.name} does not match its declared size and checksum`);
  return content;
}

function findEndOfCentralDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === endOfCentralDirectory) return at;
  }
  throw notZip('no end of central directory record was found');
}

function notZip(reason: string, cause?: unknown): ValidationError {
  return new ValidationError(`file is not a valid zip archive: ${reason}`, { field: 'file', ...(cause === undefined ? {} : { cause }) });
}

import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError, VigilError } from '../core/index.js';

/** A `multipart/form-data` body read whole: its text fields and its one file. */
export interface MultipartForm {
  readonly fields: ReadonlyMap<string, string>;
  readonly file: Buffer | null;
}

export interface MultipartFormOptions {
  /** The only field names accepted; any other is a 400. */
  readonly fields: readonly string[];
  readonly maxFileBytes: number;
  /** Names what the form is for in the 415 answer. */
  readonly describe: string;
}

/**
 * Reads a multipart form with `@fastify/multipart` (registered with matching limits on the route's
 * scope), turning every way it can go wrong into a typed error with a message a client can act on:
 * 415 when the body is not multipart, 413 over a limit, 400 for a malformed body, an unknown or
 * repeated field, or a second file.
 */
export async function readMultipartForm(request: FastifyRequest, options: MultipartFormOptions): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new UnsupportedMediaTypeError(`send multipart/form-data: ${options.describe}`);
  const fields = new Map<string, string>();
  let file: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (file !== null) throw new ValidationError('send one file, not several', { field: part.fieldname });
        file = await part.toBuffer();
        continue;
      }
      const name = part.fieldname;
      if (!options.fields.includes(name)) throw new ValidationError(`unknown field ${JSON.stringify(name)}; the fields are ${options.fields.join(', ')}`, { field: name });
      if (fields.has(name)) throw new ValidationError(`field ${name} is given twice`, { field: name });
      if (part.valueTruncated) throw new PayloadTooLargeError(`field ${name} is too long`, { field: name });
      fields.set(name, typeof part.value === 'string' ? part.value : String(part.value));
    }
  } catch (error) {
    throw asTypedError(error, options.maxFileBytes);
  }
  return { fields, file };
}

function asTypedError(error: unknown, maxFileBytes: number): unknown {
  if (error instanceof VigilError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLargeError(`the file is larger than ${maxFileBytes} bytes`, { field: 'file', cause: error });
    case 'FST_FILES_LIMIT':
      return new ValidationError('send one file, not several', { field: 'file', cause: error });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new PayloadTooLargeError('the form has too many fields', { cause: error });
    case 'FST_PROTO_VIOLATION':
      return new ValidationError('a field name is not allowed', { cause: error });
    default:
      // busboy's own words ("Unexpected end of form", "Malformed part header") say what is wrong.
      return new ValidationError(`malformed multipart body: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';

/** Ajv options shared by every part of a request. */
const sharedOptions = { removeAdditional: false, useDefaults: true, allErrors: false } as const;

/**
 * Fastify's validator factory (`schemaController.compilersFactory.buildValidator`) with one Ajv
 * per kind of input. Query strings, path parameters and headers are text, so they are coerced
 * (`?max_rows=10`, `?run_tests=true`, a repeated parameter into an array). A JSON body already
 * carries its types: coercing it would read `null`, `"false"` or `0` as false and `true` as 1,
 * so bodies are validated as sent and a wrong type is a 400 naming the field.
 */
export function buildRequestValidator(externalSchemas: Record<string, unknown>): FastifySchemaCompiler<unknown> {
  const fromPool = AjvCompiler();
  const schemas = externalSchemas as Parameters<typeof fromPool>[0];
  const text = fromPool(schemas, { customOptions: { ...sharedOptions, coerceTypes: 'array' } });
  const json = fromPool(schemas, { customOptions: { ...sharedOptions, coerceTypes: false } });
  // The pool's compilers take the whole route definition (their typings say the schema alone).
  return (route) => (route.httpPart === 'body' ? json(route as never) : text(route as never));
}

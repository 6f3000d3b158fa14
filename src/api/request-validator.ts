import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler, FastifySchema } from 'fastify';

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
  return ((route: { httpPart?: string; schema?: unknown }) => {
    if (route.httpPart === 'body') return json(route as never);
    const validate = text(route as never) as unknown as Validate;
    return route.httpPart === 'querystring' ? withBooleanSpellings(validate, booleanParameters(route.schema as FastifySchema | undefined)) : validate;
  }) as unknown as FastifySchemaCompiler<unknown>;
}

/** A compiled validator as Fastify calls it: a result, and its problems in `errors`. */
type Validate = ((data: unknown) => unknown) & { errors?: unknown };

// Python's requests writes a boolean parameter as `True`/`False`; others write 1/0.
const booleanSpellings: Readonly<Record<string, string>> = { true: 'true', True: 'true', TRUE: 'true', '1': 'true', false: 'false', False: 'false', FALSE: 'false', '0': 'false' };

/** The query parameters a schema types as booleans. */
function booleanParameters(schema: FastifySchema | undefined): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'boolean')
    .map(([name]) => name);
}

/**
 * A query string validator that first reads each boolean parameter's spellings
 * (`true/false/True/False/1/0`, docs/compatibility.md) as `true`/`false`, which Ajv then coerces.
 */
function withBooleanSpellings(validate: Validate, names: readonly string[]): Validate {
  if (names.length === 0) return validate;
  const check = validate;
  const wrapped: Validate = (data: unknown) => {
    if (data !== null && typeof data === 'object') {
      const query = data as Record<string, unknown>;
      for (const name of names) {
        const value = query[name];
        if (typeof value === 'string' && booleanSpellings[value] !== undefined) query[name] = booleanSpellings[value];
      }
    }
    const result = check(data);
    wrapped.errors = check.errors;
    return result;
  };
  return wrapped;
}

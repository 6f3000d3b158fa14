import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ValidationError, formatApiTimestamp } from '../../core/index.js';
import { keyHoldsTenant, lookupCsvLimits, maxLookupTablePageSize, readLookupCsv, type LookupTableService, type TenantService } from '../../services/index.js';
import type { LookupTableRecord } from '../../store/index.js';
import { actorOf, apiKeyOf, assertTenantAccess } from '../auth.js';
import { listRequestOf } from '../list-request.js';
import { readMultipartForm } from '../multipart-form.js';
import { DeletedResponse } from '../detection-schemas.js';
import { ErrorBody, IdParams, errorResponses } from '../schemas.js';

const Timestamp = Type.String({ description: 'UTC, YYYY-MM-DDThh:mm:ssZ' });

export const LookupTableObject = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    name: Type.String({ description: 'What a query names: | lookup NAME KEY ...' }),
    description: Type.Union([Type.String(), Type.Null()]),
    columns: Type.Array(Type.String(), { description: "The header's column names, in file order" }),
    num_rows: Type.Integer(),
    size_bytes: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'LookupTableFile' },
);
type LookupTableObject = Static<typeof LookupTableObject>;

const LookupTableResponse = Type.Object({ lookup_table_file: Type.Ref(LookupTableObject) });
const LookupTableListQuery = Type.Object(
  {
    tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    'pagination[page_size]': Type.Optional(Type.Integer({ minimum: 1, maximum: maxLookupTablePageSize, default: 50 })),
    'pagination[page_token]': Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const LookupTableUpdateBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200, description: 'Must equal the id in the path' }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
  },
  { additionalProperties: false },
);
type LookupTableUpdateBody = Static<typeof LookupTableUpdateBody>;
const TenantParams = Type.Object({ tenant_id: Type.String({ minLength: 1, maxLength: 64 }) });
const PreviewQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 10, description: 'Data rows after the header' })) },
  { additionalProperties: false },
);

const uploadFields = ['name', 'description'];
const describeUpload = 'the fields name and (optional) description, and the CSV file whose first line names the columns';

/** The public shape of a lookup table (the published SDK's LookupTableFile, plus its columns). */
export function toLookupTableObject(table: LookupTableRecord): LookupTableObject {
  return {
    id: table.id,
    tenant_id: table.tenantId,
    name: table.name,
    description: table.description,
    columns: [...table.columns],
    num_rows: table.numRows,
    size_bytes: table.sizeBytes,
    created_at: formatApiTimestamp(table.createdAt),
    updated_at: formatApiTimestamp(table.updatedAt),
  };
}

/**
 * `/v1/lookup_table_file` (docs/compatibility.md, "Lookup tables"): upload a CSV, list, read,
 * describe, download, preview, replace and delete the tables queries read with `| lookup`. The
 * `/v1/unstable/lookup_table_file/tenant/{tenant_id}` paths some published scripts use list and
 * upload too. Ids of tables the key cannot see answer 404, like unknown ones.
 */
export function registerLookupTableRoutes(app: FastifyInstance, tables: LookupTableService, tenants: TenantService): void {
  app.addSchema(LookupTableObject);
  const visible = (request: FastifyRequest) => {
    const key = apiKeyOf(request);
    return (tenantId: string) => keyHoldsTenant(key, tenantId);
  };

  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: lookupCsvLimits.maxBytes, files: 1, fields: uploadFields.length, fieldSize: 64 << 10, parts: uploadFields.length + 1 } });
    const upload = async (request: FastifyRequest<{ Params: { tenant_id: string } }>) => {
      // A path parameter is not seen by the hook that resolves tenant names (tenant-references.ts).
      const tenantId = await tenants.resolve(request.params.tenant_id);
      assertTenantAccess(request, tenantId);
      const form = await readMultipartForm(request, { fields: uploadFields, maxFileBytes: lookupCsvLimits.maxBytes, describe: describeUpload });
      if (form.file === null) throw new ValidationError('missing the CSV file', { field: 'file' });
      const name = form.fields.get('name');
      if (name === undefined) throw new ValidationError('missing required field name', { field: 'name' });
      const table = await tables.create(tenantId, { name, description: form.fields.get('description') ?? null, file: form.file }, actorOf(request));
      return { lookup_table_file: toLookupTableObject(table) };
    };
    const uploadSchema = {
      summary: 'Upload a CSV as a lookup table',
      description: `multipart/form-data with ${describeUpload}`,
      tags: ['lookup tables'],
      consumes: ['multipart/form-data'],
      params: TenantParams,
      response: { 200: LookupTableResponse, 409: Type.Ref(ErrorBody), 413: Type.Ref(ErrorBody), 415: Type.Ref(ErrorBody), ...errorResponses },
    };
    scope.post('/v1/lookup_table_file/upload/tenant/:tenant_id', { schema: uploadSchema }, upload);
    scope.post('/v1/unstable/lookup_table_file/tenant/:tenant_id', { schema: { ...uploadSchema, hide: true } }, upload);

    scope.post<{ Params: IdParams }>(
      '/v1/lookup_table_file/:id/replace_data',
      {
        schema: {
          summary: "Replace a lookup table's rows (and columns) with a new CSV",
          description: 'multipart/form-data with the CSV file; queries read the old rows or the new, never a mix',
          tags: ['lookup tables'],
          consumes: ['multipart/form-data'],
          params: IdParams,
          response: { 200: LookupTableResponse, 413: Type.Ref(ErrorBody), 415: Type.Ref(ErrorBody), ...errorResponses },
        },
      },
      async (request) => {
        const form = await readMultipartForm(request, { fields: ['description'], maxFileBytes: lookupCsvLimits.maxBytes, describe: 'the CSV file' });
        if (form.file === null) throw new ValidationError('missing the CSV file', { field: 'file' });
        let table = await tables.replaceData(request.params.id, form.file, visible(request), actorOf(request));
        const description = form.fields.get('description');
        if (description !== undefined) table = await tables.updateDescription(table.id, description, visible(request), actorOf(request));
        return { lookup_table_file: toLookupTableObject(table) };
      },
    );
  });

  app.get<{ Querystring: Static<typeof LookupTableListQuery> }>(
    '/v1/lookup_table_file',
    {
      schema: {
        summary: 'List the lookup tables of a tenant',
        tags: ['lookup tables'],
        querystring: LookupTableListQuery,
        response: {
          200: Type.Object({
            data: Type.Object({ lookup_table_files: Type.Array(Type.Ref(LookupTableObject)) }),
            pagination: Type.Object({ next_page_token: Type.Union([Type.String(), Type.Null()]) }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { tenantId, pageSize, pageToken } = listRequestOf(request, reply, 50, maxLookupTablePageSize);
      const page = await tables.list(tenantId, pageSize, pageToken);
      return { data: { lookup_table_files: page.items.map(toLookupTableObject) }, pagination: { next_page_token: page.nextPageToken } };
    },
  );

  app.get<{ Params: { tenant_id: string } }>(
    '/v1/unstable/lookup_table_file/tenant/:tenant_id',
    { schema: { hide: true, params: TenantParams, response: { 200: Type.Object({ lookup_table_files: Type.Array(Type.Ref(LookupTableObject)) }), ...errorResponses } } },
    async (request) => {
      const tenantId = await tenants.resolve(request.params.tenant_id);
      assertTenantAccess(request, tenantId);
      const all = await tables.list(tenantId, maxLookupTablePageSize);
      return { lookup_table_files: all.items.map(toLookupTableObject) };
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/lookup_table_file/:id',
    { schema: { summary: 'Read one lookup table', tags: ['lookup tables'], params: IdParams, response: { 200: LookupTableResponse, ...errorResponses } } },
    async (request) => ({ lookup_table_file: toLookupTableObject(await tables.find(request.params.id, visible(request))) }),
  );

  app.put<{ Params: IdParams; Body: LookupTableUpdateBody }>(
    '/v1/lookup_table_file/:id',
    {
      schema: {
        summary: "Change a lookup table's description",
        tags: ['lookup tables'],
        params: IdParams,
        body: LookupTableUpdateBody,
        response: { 200: LookupTableResponse, ...errorResponses },
      },
    },
    async (request) => {
      if (request.body.id !== request.params.id) throw new ValidationError(`id ${JSON.stringify(request.body.id)} does not match the id in the path`, { field: 'id' });
      const current = await tables.find(request.params.id, visible(request));
      const table = request.body.description === undefined ? current : await tables.updateDescription(current.id, request.body.description, visible(request), actorOf(request));
      return { lookup_table_file: toLookupTableObject(table) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/v1/lookup_table_file/:id',
    {
      schema: {
        summary: 'Delete a lookup table; queries naming it then fail to analyze',
        tags: ['lookup tables'],
        params: IdParams,
        response: { 200: DeletedResponse, ...errorResponses },
      },
    },
    async (request) => {
      const table = await tables.delete(request.params.id, visible(request), actorOf(request));
      return { id: table.id, tenant_id: table.tenantId };
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/lookup_table_file/:id/data',
    { schema: { summary: 'Download the CSV of a lookup table', tags: ['lookup tables'], params: IdParams, response: errorResponses } },
    async (request, reply) => {
      const { csv } = await tables.csv(request.params.id, visible(request));
      return reply.type('text/csv; charset=utf-8').send(csv);
    },
  );

  app.get<{ Params: IdParams; Querystring: Static<typeof PreviewQuery> }>(
    '/v1/lookup_table_file/:id/csv_preview',
    { schema: { summary: 'The header and first rows of a lookup table, as CSV', tags: ['lookup tables'], params: IdParams, querystring: PreviewQuery, response: errorResponses } },
    async (request, reply) => {
      const { table, csv } = await tables.csv(request.params.id, visible(request));
      return reply.type('text/csv; charset=utf-8').send(csvPreview(table.columns, csv, request.query.limit ?? 10));
    },
  );
}

/**
 * The header and the first `limit` data lines, as CSV again (each field quoted when it must be).
 * The stored file was checked when it was uploaded: it is parsed again rather than cut as text,
 * where a quoted field may hold a line break.
 */
function csvPreview(columns: readonly string[], csv: string, limit: number): string {
  const rows = limit === 0 ? [] : readLookupCsv(csv).rows.slice(0, limit);
  return [columns, ...rows].map((cells) => cells.map(csvField).join(',')).join('\n') + '\n';
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

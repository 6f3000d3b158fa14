import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ValidationError } from '../../core/index.js';
import { keyHoldsTenant, type RepositorySync, type RepositorySyncResult, type TenantService } from '../../services/index.js';
import { actorOf, apiKeyOf, tenantOf } from '../auth.js';
import { warn } from '../published-spellings.js';
import { readMultipartForm } from '../multipart-form.js';
import { ErrorBody, errorResponses } from '../schemas.js';
import { RepositorySyncResponse } from '../sync-schemas.js';
import { toSyncSourceObject } from './sync-source-routes.js';

const formFields = ['push_key', 'branch', 'commit_sha', 'commit_message', 'tenant_id'];
const describeForm = 'the fields push_key, branch, commit_sha, optional commit_message and tenant_id, and the zip file of the repository';

/**
 * `POST /v1/upload_git_repo_zipball` (detections.md 3.5): a zip of a repository synced into the
 * rules of the sync source its push key and branch name. 200 when applied; 422, with every
 * file's problems, when a rule file failed and so nothing changed.
 */
export function registerRepositorySyncRoutes(app: FastifyInstance, sync: RepositorySync, tenants: TenantService): void {
  const maxArchiveBytes = sync.limits.maxArchiveBytes;
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: maxArchiveBytes, files: 1, fields: formFields.length, fieldSize: 64 << 10, parts: formFields.length + 1 } });

    scope.post(
      '/v1/upload_git_repo_zipball',
      {
        schema: {
          summary: 'Sync the rules of a sync source with a zip of its repository',
          description: `multipart/form-data with ${describeForm}`,
          tags: ['sync sources'],
          consumes: ['multipart/form-data'],
          response: { 200: RepositorySyncResponse, 413: Type.Ref(ErrorBody), 415: Type.Ref(ErrorBody), 422: RepositorySyncResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        const form = await readMultipartForm(request, { fields: formFields, maxFileBytes: maxArchiveBytes, describe: describeForm });
        const required = (name: string): string => {
          const value = form.fields.get(name);
          if (value === undefined || value === '') throw new ValidationError(`missing required field ${name}`, { field: name });
          return value;
        };
        const upload = {
          pushKey: required('push_key'),
          branch: required('branch'),
          commitSha: required('commit_sha'),
          commitMessage: form.fields.get('commit_message') ?? null,
          // A form field is not seen by the hook that resolves tenant names (tenant-references.ts).
          ...(form.fields.has('tenant_id') ? { tenantId: await tenants.resolve(required('tenant_id')) } : {}),
        };
        if (form.file === null) throw new ValidationError('missing the zip file of the repository', { field: 'file' });
        const key = apiKeyOf(request);
        const result = await sync.upload({ ...upload, archive: form.file }, (tenantId) => keyHoldsTenant(key, tenantId), actorOf(request), key.name);
        const body = toSyncResponse(result);
        if (!result.applied) return reply.status(422).send(body);
        return body;
      },
    );
  });

  // The published SDK's `github_sync.sync_repositories`: Scanner pulls the repositories of its
  // GitHub app now. Vigil pulls nothing (repositories are pushed with upload_git_repo_zipball, so
  // a tenant's rules are as new as its last push): the call is answered as the SDK expects, and
  // says so in a Warning header.
  app.post<{ Body: { tenant_id?: string } }>(
    '/v1/sync_github_repositories',
    {
      schema: {
        summary: 'Accepted for the published SDK: Vigil syncs repositories when they are pushed, so there is nothing to pull',
        tags: ['sync sources'],
        body: Type.Object({ tenant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
        response: { 200: Type.Object({ tenant_id: Type.String() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request, request.body?.tenant_id);
      warn(reply, ['nothing to pull: Vigil syncs a repository when it is pushed (POST /v1/upload_git_repo_zipball)']);
      return { tenant_id: tenantId };
    },
  );
}

function toSyncResponse(result: RepositorySyncResult) {
  const failed = result.files.filter((file) => file.status !== 'Passed' && file.status !== 'Valid');
  return {
    ...(result.applied
      ? {}
      : {
          error: `${failed.length} of ${result.files.length} rule files failed: nothing was applied (${failed
            .slice(0, 5)
            .map((f) => f.path)
            .join(', ')}${failed.length > 5 ? ', …' : ''})`,
        }),
    applied: result.applied,
    sync_source: toSyncSourceObject(result.source),
    files: result.files.map((file) => ({
      file_path: file.path,
      status: file.status,
      ...(file.action ? { action: file.action, detection_rule_id: file.ruleId } : {}),
      ...(file.error !== undefined ? { error: file.error } : {}),
      ...(file.warning !== undefined ? { warning: file.warning } : {}),
      ...(file.tests ? { tests: file.tests.map((t) => ({ name: t.name, status: t.status })) } : {}),
    })),
    deleted: result.deleted.map((d) => ({ detection_rule_id: d.ruleId, name: d.name, file_path: d.path })),
    ignored_files: result.ignored.map((i) => ({ file_path: i.path, reason: i.reason })),
  };
}

import { Type, type Static } from '@sinclair/typebox';
import { maxSyncSourcePageSize } from '../services/index.js';

/** JSON schemas of sync sources and repository uploads (docs/rule-sync.md). */

const EventSinkKeys = Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }), {
  description: 'Maps each event_sink_keys name of the rule files to one or more event sink ids of the tenant',
});

export const SyncSourceObject = Type.Object(
  {
    id: Type.String(),
    tenant_id: Type.String(),
    push_key: Type.String({ description: 'Names the source, with branch, in uploads' }),
    branch: Type.String(),
    event_sink_keys: EventSinkKeys,
    last_commit_sha: Type.Union([Type.String(), Type.Null()], { description: 'Commit of the last applied sync, verbatim (may end in +dirty)' }),
    last_commit_message: Type.Union([Type.String(), Type.Null()]),
    last_synced_at: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'SyncSource' },
);
export type SyncSourceObject = Static<typeof SyncSourceObject>;

export const SyncSourceResponse = Type.Object({ sync_source: Type.Ref(SyncSourceObject) });

export const SyncSourceCreateBody = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
    push_key: Type.String({ minLength: 1, maxLength: 200 }),
    branch: Type.String({ minLength: 1, maxLength: 255 }),
    event_sink_keys: Type.Optional(EventSinkKeys),
  },
  { additionalProperties: false },
);
export type SyncSourceCreateBody = Static<typeof SyncSourceCreateBody>;

export const SyncSourceUpdateBody = Type.Object(
  { id: Type.String(), event_sink_keys: EventSinkKeys },
  { additionalProperties: false, description: 'Replaces the sink-key map; the next sync resolves its rules through it' },
);
export type SyncSourceUpdateBody = Static<typeof SyncSourceUpdateBody>;

export const SyncSourceListQuery = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
    'pagination[page_size]': Type.Optional(Type.Integer({ minimum: 1, maximum: maxSyncSourcePageSize, default: 50 })),
    'pagination[page_token]': Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type SyncSourceListQuery = Static<typeof SyncSourceListQuery>;

export const SyncSourceListResponse = Type.Object({
  data: Type.Object({ sync_sources: Type.Array(Type.Ref(SyncSourceObject)) }),
  pagination: Type.Object({ next_page_token: Type.Union([Type.String(), Type.Null()]) }),
});

export const SyncSourceDeletedResponse = Type.Object({
  id: Type.String(),
  tenant_id: Type.String(),
  deleted_detection_rule_ids: Type.Array(Type.String(), { description: 'The rules synced from the source, deleted with it' }),
});

const FileStatus = Type.Union(['Valid', 'Invalid', 'ExecutionError', 'Passed', 'TestsFailed'].map((s) => Type.Literal(s)));

export const RepositorySyncResponse = Type.Object(
  {
    error: Type.Optional(Type.String({ description: 'Present when nothing was applied (422)' })),
    applied: Type.Boolean({ description: 'False when a rule file failed validation or a test: then nothing changed' }),
    sync_source: Type.Ref(SyncSourceObject),
    files: Type.Array(
      Type.Object({
        file_path: Type.String(),
        status: FileStatus,
        action: Type.Optional(Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('unchanged')])),
        detection_rule_id: Type.Optional(Type.String()),
        error: Type.Optional(Type.String()),
        warning: Type.Optional(Type.String()),
        tests: Type.Optional(Type.Array(Type.Object({ name: Type.String(), status: Type.Union([Type.Literal('Passed'), Type.Literal('Failed')]) }))),
      }),
      { description: 'Every rule file of the archive, in path order' },
    ),
    deleted: Type.Array(Type.Object({ detection_rule_id: Type.String(), name: Type.String(), file_path: Type.Union([Type.String(), Type.Null()]) }), {
      description: 'Rules whose file is gone, deleted by this sync',
    }),
    ignored_files: Type.Array(Type.Object({ file_path: Type.String(), reason: Type.String() }), { description: 'YAML files not taken as rule files' }),
  },
  { description: 'The outcome of a repository sync' },
);

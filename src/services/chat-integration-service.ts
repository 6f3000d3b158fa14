import { NotFoundError, ValidationError, newId, type Clock, type SecretBox } from '../core/index.js';
import type { EventSinkArgsChecker } from '../detections/index.js';
import type { ChatIntegrationRecord, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { checkDisplayName, checkTenantId } from './names.js';
import type { TenantService } from './tenant-service.js';

export interface AddChatIntegrationInput {
  /** The bot token (`xoxb-…`); sealed at once, never shown again. */
  readonly token: string;
  /** The chat Web API base URL; omitted means the service default. */
  readonly apiUrl?: string;
  readonly name?: string;
}

/**
 * Chat integrations, registered by operators through the CLI (detections.md E11). The bot token
 * is sealed with the secrets key before it reaches the store; no endpoint returns it and the audit
 * trail does not record it.
 */
export class ChatIntegrationService {
  constructor(
    private readonly store: Store,
    private readonly tenants: TenantService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly checker: EventSinkArgsChecker,
  ) {}

  async add(tenantId: string, input: AddChatIntegrationInput, actor: Actor): Promise<ChatIntegrationRecord> {
    checkTenantId(tenantId, 'tenant');
    const token = input.token.trim();
    if (token.length < 8 || token.length > 512 || /\s/.test(token)) throw new ValidationError('the token must be 8 to 512 characters without spaces', { field: 'token' });
    const apiUrl = input.apiUrl === undefined ? null : this.checker.checkDestination(input.apiUrl, 'api_url');
    const name = checkDisplayName(input.name ?? 'chat workspace');
    tenantId = (await this.tenants.ensure(tenantId)).id; // a name (`default`) stands for its tenant's id
    const id = newId();
    const integration: ChatIntegrationRecord = {
      id,
      tenantId,
      name,
      apiUrl,
      sealedToken: this.secrets.seal(token, sealContext(tenantId, id)),
      tokenHint: hintOf(token),
      createdAt: this.clock.nowMs(),
    };
    await this.store.chatIntegrations.insert(integration);
    await this.audit.record(tenantId, actor, 'chat_integration.create', id, { name, api_url: apiUrl === null ? null : new URL(apiUrl).origin });
    return integration;
  }

  list(tenantId?: string): Promise<ChatIntegrationRecord[]> {
    return this.store.chatIntegrations.list(tenantId);
  }

  /** Removes an integration; ConflictError while sinks post through it. */
  async remove(tenantId: string, id: string, actor: Actor): Promise<ChatIntegrationRecord> {
    const integration = await this.store.chatIntegrations.get(tenantId, id);
    if (!integration || !(await this.store.chatIntegrations.delete(tenantId, id))) throw new NotFoundError(`chat integration ${JSON.stringify(id)} not found`);
    await this.audit.record(tenantId, actor, 'chat_integration.delete', id, { name: integration.name });
    return integration;
  }

  /** The bot token in clear, for the delivery worker. */
  tokenOf(integration: ChatIntegrationRecord): string {
    return this.secrets.open(integration.sealedToken, sealContext(integration.tenantId, integration.id));
  }
}

function sealContext(tenantId: string, id: string): string {
  return `chat_integration:${tenantId}:${id}`;
}

/** `xoxb-…wxyz`: the token's kind and last four characters. */
function hintOf(token: string): string {
  const dash = token.indexOf('-');
  const kind = dash > 0 && dash <= 5 ? token.slice(0, dash + 1) : '';
  return token.length >= 16 ? `${kind}…${token.slice(-4)}` : `${kind}…`;
}

import type { FastifyInstance } from 'fastify';
import { ruleFileSchema, ruleFileSchemaPath } from '../../detections/index.js';

/**
 * Static JSON Schemas for editors (`# yaml-language-server: $schema=<url>`): public, no key
 * needed, as they say nothing about any tenant.
 */
export function registerSchemaRoutes(app: FastifyInstance): void {
  const schema = JSON.stringify(ruleFileSchema(), null, 2);
  app.get(ruleFileSchemaPath, { schema: { summary: 'The JSON Schema of detection rule files (YAML)', tags: ['detection rule files'], security: [] } }, async (_request, reply) =>
    reply.header('content-type', 'application/schema+json; charset=utf-8').header('cache-control', 'public, max-age=3600').send(schema),
  );
}

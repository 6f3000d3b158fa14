/**
 * cli: the terminal. Commands (serve, ingest, query, index, keys, rules, sinks, alerts,
 * integrations, sync-sources, demo, migrate-store), their output (tables, JSON, progress), exit
 * codes. Gets every concrete part through CliContext from bin.ts.
 */
export { runCli } from './program.js';
export { discardOutputOnceClosed } from './closed-output.js';
export type { CliContext, OpenedServices } from './cli-context.js';
export { generateDemoEvents } from './demo-events.js';

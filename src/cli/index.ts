/**
 * cli: the terminal — commands (serve, ingest, query, index, keys, rules, sinks, alerts, integrations,
 * sync-sources, demo, migrate-store), their output and exit codes. Imports core, domain, config,
 * query, services, search, ingest, detections, store, engine and api (doors only); every concrete
 * part arrives through CliContext from bin.ts.
 */
export { runCli } from './program.js';
export { discardOutputOnceClosed } from './closed-output.js';
export type { CliContext, OpenedServices } from './cli-context.js';
export { generateDemoEvents } from './demo-events.js';

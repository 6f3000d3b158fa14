/**
 * engine/chdb: the embedded events engine (ClickHouse in process through the `chdb` package).
 * Only composition roots (server.ts, bin.ts) and tests import it; everyone else sees `Engine`.
 */
export { ChdbEngine } from './chdb-engine.js';

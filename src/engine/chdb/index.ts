/**
 * engine/chdb: the embedded events engine (ClickHouse in process through the `chdb` package).
 * Imports core and the engine contract; only composition roots and tests import it.
 */
export { ChdbEngine } from './chdb-engine.js';

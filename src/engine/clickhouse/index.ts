/**
 * engine/clickhouse: the events engine on a ClickHouse server or cluster over HTTP, same SQL as
 * engine/chdb. Imports core and the engine contract; only composition roots and tests import it.
 */
export { ClickHouseHttpEngine, type ClickHouseHttpEngineOptions } from './clickhouse-http-engine.js';

/**
 * engine/clickhouse: the events engine on a ClickHouse server or cluster, over the HTTP
 * interface. Same SQL as engine/chdb; only composition roots and tests import it.
 */
export { ClickHouseHttpEngine, type ClickHouseHttpEngineOptions } from './clickhouse-http-engine.js';

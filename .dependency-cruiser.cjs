// The layer rule (docs/architecture.md, "Layers"; ARCHITECTURE.md section 4), checked on every `npm test`.
// Arrows go down only; a module's public door is its index.ts.
const layer = (name, allowed) => ({
  name: `${name}-imports-only-${allowed.join('-') || 'nothing'}`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: {
    path: '^src/',
    pathNot: [`^src/${name}/`, ...allowed.map((a) => `^src/${a}/`)],
  },
});

module.exports = {
  forbidden: [
    layer('core', []),
    // the nouns of rules, sinks and alerts (types only) that store, sinks, detections and api share.
    layer('domain', []),
    layer('config', ['core']),
    layer('query', ['core']),
    layer('engine', ['core']),
    layer('store', ['core', 'domain']),
    layer('sinks', ['core', 'domain']),
    // search rebuilds returned events from their raw text with ingest's own flattening (storedColumns).
    layer('search', ['core', 'query', 'engine', 'ingest']),
    layer('ingest', ['core', 'engine']),
    // services are the use cases the API and the CLI share; their domain checks (the query
    // analyzer, templates, sink arguments, rule files) live in detections, the rule model's home.
    layer('services', ['core', 'domain', 'engine', 'store', 'ingest', 'search', 'detections']),
    layer('detections', ['core', 'domain', 'query', 'store', 'sinks']),
    // the shipper protocols decode onto the one ingest use case (services) with ingest's JSON reader.
    layer('shippers', ['core', 'ingest', 'services']),
    layer('api', ['core', 'domain', 'config', 'query', 'services', 'search', 'ingest', 'detections', 'store', 'engine', 'shippers']),
    layer('cli', ['core', 'domain', 'config', 'query', 'services', 'search', 'ingest', 'detections', 'store', 'engine', 'api']),
    {
      name: 'only-through-the-door',
      comment: 'other modules import a module only through its index.ts',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/([^/]+)/.+', pathNot: ['^src/$1/', '/index\\.ts$'] },
    },
    {
      name: 'concrete-adapters-only-in-roots',
      comment: 'only the composition roots (runtime.ts, server.ts, bin.ts) and tests name the concrete engine and store adapters',
      severity: 'error',
      from: { path: '^src/(api|cli|services|search|ingest|detections|shippers)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(engine/chdb|engine/clickhouse|store/sqlite|store/postgres)/' },
    },
    {
      name: 'console-only-through-the-api',
      comment: 'the web console talks to the server only through the public /v1 API (its own client), never its code',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(src|test|bench)/' },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '\\.test\\.ts$' },
  },
};

/** The fixed tenant the compiler's golden files and unit tests compile against. */
import type { AnalysisContext } from '../../analyzer/analyze-query.js';
import type { CompileOptions } from '../compile-query.js';
import type { StoredLayout } from '../../../core/index.js';

export const goldenContext: AnalysisContext = {
  indexes: [
    { id: 'i-main', name: 'main', system: false },
    { id: 'i-cloudtrail', name: 'cloudtrail', system: false },
    { id: '7d1c1c9e-0000-4000-8000-000000000001', name: 'global-cloudtrail', system: false },
    { id: 'i-detections', name: '_detections', system: true },
    { id: 'i-audit', name: '_audit', system: true },
  ],
  fieldPaths: [
    'eventName',
    'eventSource',
    'errorCode',
    'userIdentity.arn',
    'userIdentity.type',
    'userIdentity.sessionContext.sessionIssuer.arn',
    'sourceIPAddress',
    'elapsed_ms',
    'message',
    'tags[0]',
    'tags[1]',
    'results_table.rows[0].userIdentity.arn',
  ],
  lookupTables: [
    { id: 'lt-bad-ips', name: 'bad_ips', columns: ['indicator', 'provider', 'description'], version: 'v7' },
    { id: 'lt-owners', name: 'account owners', columns: ['arn', 'team'], version: 'v1' },
  ],
};

/**
 * Where the golden tenant's stored columns are: one lineage of field maps (ids 65536-131071) that
 * holds the strings of eventName, sourceIPAddress and userIdentity.arn in slots s0-s2 and the
 * numbers of elapsed_ms in n0 from its first version, as ingest promotes a new index's frequent
 * fields; every other column (and the other kind of these) is read from the rest maps.
 */
export const goldenStoredLayout: StoredLayout = (() => {
  const lineage: [bigint, bigint] = [65_536n, 131_071n];
  const slot = (column: string) => [{ column, kind: column.startsWith('s') ? ('string' as const) : ('number' as const), mapRanges: [lineage], shared: false }];
  return {
    legacy: false,
    mapRanges: [lineage],
    slots: new Map([
      ['eventName', slot('s0')],
      ['sourceIPAddress', slot('s1')],
      ['userIdentity.arn', slot('s2')],
      ['elapsed_ms', slot('n0')],
    ]),
    slotted: new Set(['s:eventName', 's:sourceIPAddress', 's:userIdentity.arn', 'n:elapsed_ms']),
  };
})();

export const goldenOptions: CompileOptions = {
  tenant: 'acme',
  startNs: 1_763_683_200_000_000_000n,
  endNs: 1_763_769_600_000_000_000n,
};

/**
 * The field catalog's types for the typed golden files (testdata/compiler/typed): one column of
 * each shape. `apiVersion` is not in the catalog: no event in range has it.
 */
export const goldenFieldTypes: ReadonlyMap<string, readonly string[]> = new Map([
  ['eventName', ['String']],
  ['sourceIPAddress', ['String']],
  ['userIdentity.arn', ['String']],
  ['userIdentity.type', ['String']],
  ['userIdentity.sessionContext.sessionIssuer.arn', ['Null', 'String']],
  ['elapsed_ms', ['Int64']],
  ['bytes', ['Float64', 'Int64']],
  ['ratio', ['Float64']],
  ['errorCode', ['Null']],
]);

/** The golden tenant with its catalog's types known, as search plans aggregations. */
export const typedGoldenContext: AnalysisContext = {
  indexes: goldenContext.indexes,
  ...(goldenContext.lookupTables ? { lookupTables: goldenContext.lookupTables } : {}),
  fieldPaths: [...goldenFieldTypes.keys()],
  fieldTypes: goldenFieldTypes,
};

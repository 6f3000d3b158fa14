/**
 * The fixed query set of the query bench (issue 3), its terms picked from the loaded data
 * deterministically, and for the text searches the ripgrep command that finds the same lines
 * in the NDJSON file.
 */
import { sqlString } from '../src/core/index.js';
import type { Engine } from '../src/engine/index.js';
import type { SearchService, TimeRange } from '../src/search/index.js';
import { benchTenant } from './query-dataset.js';

export type QueryKind = 'filter' | 'groupbycount' | 'aggregation';

export interface BenchQuery {
  /** Short stable name, e.g. `rare-token`. */
  readonly name: string;
  readonly text: string;
  readonly kind: QueryKind;
  /** Raw-event results: at most this many rows, newest first (the CLI's default page). */
  readonly maxRows: number;
  /** ripgrep arguments (before the file) that select the same lines, for the text searches. */
  readonly rg: readonly string[] | null;
  /** Why the rg lines may differ from the query's rows, when they can. */
  readonly rgNote?: string;
}

/** Terms taken from the data; printed with the results so a run can be reproduced by hand. */
export interface PickedTerms {
  readonly rareToken: string;
  readonly rareTokenCount: number;
  /** Rare-token candidates tried, with their counts (the pick is the rarest with ≥ 5 rows). */
  readonly rareCandidates: readonly { token: string; count: number }[];
  readonly hostname: string;
  readonly hostnameCount: number;
  readonly ip: string;
  readonly ipCount: number;
}

/** Raw-event page size, as `vigil query` returns by default. */
export const pageRows = 1000;

type Runner = (text: string) => Promise<readonly Record<string, unknown>[]>;

/**
 * Picks the terms. Rare token: identifier-like tokens (12-32 letters and digits, both present)
 * of a fixed sample of rows (`seq % 4099 = 17`), the 40 with the lowest hash, counted exactly
 * through the product (`tok | count`); the rarest with at least 5 events wins (ties by token).
 * Hostname and IP: the most frequent value (`groupbycount … | head 1`).
 */
export async function pickTerms(engine: Engine, search: SearchService, range: TimeRange, log: (line: string) => void): Promise<PickedTerms> {
  const run: Runner = async (text) => (await search.run(benchTenant, text, range, { maxRows: pageRows })).rows.map((r) => r.columns);
  const sample = await engine.query<{ t: string }>(
    `SELECT t FROM (SELECT DISTINCT arrayJoin(tokens(lower(search_text))) AS t FROM logs WHERE tenant = ${sqlString(benchTenant)} AND seq % 4099 = 17)
WHERE length(t) BETWEEN 12 AND 32 AND match(t, '[0-9]') AND match(t, '[a-z]') ORDER BY cityHash64(t), t LIMIT 40`,
  );
  const rareCandidates: { token: string; count: number }[] = [];
  for (const { t } of sample.rows) rareCandidates.push({ token: t, count: await countOf(run, t) });
  const eligible = rareCandidates.filter((c) => c.count >= 5).sort((a, b) => a.count - b.count || (a.token < b.token ? -1 : 1));
  const rare = eligible[0];
  if (!rare) throw new Error(`no rare-token candidate occurs in 5 or more events: ${JSON.stringify(rareCandidates)}`);
  log(`rare token ${rare.token}: ${rare.count} events (of ${rareCandidates.length} candidates)`);

  const top = async (column: string): Promise<{ value: string; count: number }> => {
    const [row] = await run(`${column}: * | groupbycount(${column}) | head 1`);
    if (!row) throw new Error(`no event has ${column}`);
    return { value: String(row[column]), count: Number(row['@q.count']) };
  };
  const host = await top('Hostname');
  const ip = await top('id.resp_h');
  log(`most frequent Hostname ${host.value} (${host.count}), id.resp_h ${ip.value} (${ip.count})`);
  return { rareToken: rare.token, rareTokenCount: rare.count, rareCandidates, hostname: host.value, hostnameCount: host.count, ip: ip.value, ipCount: ip.count };
}

async function countOf(run: Runner, text: string): Promise<number> {
  const [row] = await run(`${text} | count`);
  return Number(row?.['@q.count'] ?? 0);
}

/** The ten queries of issue 3, in the order they run. */
export function benchQueries(terms: PickedTerms): BenchQuery[] {
  const ipRegex = escapeRegex(terms.ip);
  return [
    { name: 'rare-token', text: terms.rareToken, kind: 'filter', maxRows: pageRows, rg: ['-i', '-w', terms.rareToken] },
    {
      name: 'field-equals',
      text: `Hostname = ${quoteTerm(terms.hostname)}`,
      kind: 'filter',
      maxRows: pageRows,
      rg: ['-i', '-F', `"Hostname":"${terms.hostname}"`],
    },
    {
      name: 'field-contains',
      text: 'CommandLine: powershell',
      kind: 'filter',
      maxRows: pageRows,
      rg: ['-i', '"CommandLine":"(?:[^"\\\\]|\\\\.)*?\\bpowershell\\b'],
    },
    {
      name: 'wildcard-column',
      text: `id.*: ${terms.ip}`,
      kind: 'filter',
      maxRows: pageRows,
      rg: ['"id\\.[^".]*":"' + ipRegex + '"'],
      rgNote: 'rg matches the whole value; the query also matches the IP inside a longer value',
    },
    { name: 'numeric-range', text: 'id.resp_p >= 8000 id.resp_p < 9000', kind: 'filter', maxRows: pageRows, rg: null },
    {
      name: 'phrase',
      text: "'failed password for invalid user'",
      kind: 'filter',
      maxRows: pageRows,
      rg: ['-i', '-w', '-F', 'failed password for invalid user'],
    },
    {
      name: 'leading-wildcard',
      text: '*.ps1',
      kind: 'filter',
      maxRows: pageRows,
      rg: ['-i', '\\.ps1\\b'],
      rgNote: 'rg also matches JSON keys and escapes',
    },
    { name: 'groupbycount', text: '| groupbycount(EventID)', kind: 'groupbycount', maxRows: pageRows, rg: null },
    {
      name: 'stats-by-two',
      text: '| stats count() as events, countdistinct(Hostname) as hosts by Channel, EventID',
      kind: 'aggregation',
      maxRows: pageRows,
      rg: null,
    },
    { name: 'latest-1000', text: 'svchost', kind: 'filter', maxRows: pageRows, rg: ['-i', '-w', 'svchost'] },
  ];
}

// A value as a query term: bare when it is a plain word, else single-quoted (case-insensitive).
function quoteTerm(value: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_.\-]*$/.test(value) && !/^(and|or|not)$/i.test(value)) return value;
  return `'${value.replace(/[\\'*]/g, (c) => `\\${c}`)}'`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

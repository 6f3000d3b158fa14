/**
 * Random inputs for the parser and the check every input must pass, shared by the fuzz test and
 * `npm run bench -- fuzz-parser`. Inputs are random strings weighted towards the language's own
 * characters and words, and mutations (insertions, deletions, replacements, duplications) of
 * valid queries, so that most of them get deep into the grammar before going wrong.
 */
import type { Diagnostic, Span } from '../../core/index.js';
import { Lexer } from '../lexer.js';
import { parseQuery, parseScalar } from '../parser/parser.js';
import { printQuery, printScalar } from '../printer.js';
import { SourceText } from '../source-text.js';

export const seedQueries: readonly string[] = [
  'info successfully added',
  "message: 'info - item not added' and not level: (debug trace)",
  '@index={ 5d1c2a9e-7b0f-4c3e-9a51-2f6d8e4b1c07 | "global-cloudtrail" } eventName: "CloseAccount" | count | where @q.count > 0',
  '%ingest.source_type="aws:cloudtrail" eventName=(StopLogging UpdateTrail) not errorCode: *\n| stats min(timestamp) as firstTime, count() as n by userIdentity.arn, awsRegion\n| where n >= 2',
  "(Image: '\\\\AgentExecutor.exe' or OriginalFileName: \"CONHOST.EXE\") CommandLine: (' -clsid ' and ' -target ')",
  '* | groupbycount userIdentity.arn | head 3 | tail(2)',
  '**: "23.27.124.45" tags[*]: admin pet_kinds[**]: fish `user name`: x # comment',
  '* | eval x = a + 1 * -2, y = if(lower(b) == "x", concat(c, "d"), null) | table(x, y) | rename(x as z)',
  'status >= 400 and status < 500 or code = -1.5e3 | percentile(99.9, elapsed_ms)',
  '* | stats count() as numReqs, userIdentity.arn by userIdentity.arn | stats avg(numReqs), percentile(90, numReqs)',
  '@index=(a b {0000} "c d") a\\*b app-* *@x.com | countdistinct(a, b) | max a, b',
];

const alphabet = [...'abcxyzAZ019_-.*@%:()"\'<>=|,~{}!#`\\/[]$+ \n\t'];
const fragments = [
  ...[' and ', ' or ', ' not ', ' | ', 'count', 'stats ', ' by ', ' as ', 'eval ', 'where ', 'head ', '@index=', 'percentile('],
  ...['{', '(', ')', '"', "'", '`', '\\u{41}', '\\', 'é', '😀', '\u0000', '\r\n', '# c\n', '-1', '1e5', '10.0.0.1', '**'],
];

/** A seeded pseudo-random generator in [0, 1) (mulberry32), so fuzz runs are repeatable. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomPiece(random: () => number): string {
  const roll = random();
  if (roll < 0.5) return pick(random, alphabet);
  if (roll < 0.85) return pick(random, fragments);
  return String.fromCharCode(Math.floor(random() * 0x10000));
}

/** One fuzz input: a random string or a mutated seed query. */
export function fuzzText(random: () => number): string {
  if (random() < 0.35) {
    let text = '';
    const length = Math.floor(random() * 40);
    for (let i = 0; i < length; i++) text += randomPiece(random);
    return text;
  }
  let text = pick(random, seedQueries);
  const mutations = 1 + Math.floor(random() * 4);
  for (let i = 0; i < mutations; i++) {
    const at = Math.floor(random() * (text.length + 1));
    const roll = random();
    if (roll < 0.35) text = text.slice(0, at) + randomPiece(random) + text.slice(at);
    else if (roll < 0.65) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 4));
    else if (roll < 0.9) text = text.slice(0, at) + randomPiece(random) + text.slice(at + 1);
    else text = text.slice(0, at) + text.slice(Math.floor(random() * text.length));
  }
  return text;
}

/**
 * What must hold for any text: the parsers do not throw; a text that parses prints to a text
 * that parses back to the same tree and prints the same again; a text that does not parse gets
 * at least one diagnostic, each pointing at a real place. Returns the first violation, or null.
 */
export function checkParse(text: string): string | null {
  const source = new SourceText(text);
  try {
    const { query, diagnostics } = parseQuery(text);
    if (query) {
      if (diagnostics.length > 0) return 'a query with diagnostics';
      const printed = printQuery(query);
      const again = parseQuery(printed).query;
      if (!again) return `the printed query does not parse: ${printed}`;
      if (!sameTree(again, query)) return `the printed query parses differently: ${printed}`;
      if (printQuery(again) !== printed) return `printing is not idempotent: ${printed}`;
      const dropped = uncoveredToken(source, query.pipeline.length > 0 || query.filter.span.end.offset > 0 ? query : null);
      if (dropped) return `the tree has no node for ${dropped}`;
    } else {
      const problem = checkDiagnostics(source, diagnostics);
      if (problem) return problem;
    }
    const scalar = parseScalar(text);
    if (scalar.expr) {
      const printed = printScalar(scalar.expr);
      const again = parseScalar(printed).expr;
      if (!again || !sameTree(again, scalar.expr)) return `the printed expression parses differently: ${printed}`;
    } else {
      return checkDiagnostics(source, scalar.diagnostics);
    }
    return null;
  } catch (error) {
    return `threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
}

function checkDiagnostics(source: SourceText, diagnostics: readonly Diagnostic[]): string | null {
  if (diagnostics.length === 0) return 'no tree and no diagnostic';
  for (const d of diagnostics) {
    const span = d.span;
    if (!span) return `a diagnostic without a span: ${d.message}`;
    if (!(span.start.offset <= span.end.offset && span.end.offset <= source.length)) return `a span outside the text: ${d.message}`;
    const expected = source.span(span.start.offset, span.end.offset);
    if (JSON.stringify(expected) !== JSON.stringify(span)) return `a span with wrong line or column: ${d.message}`;
  }
  return null;
}

/**
 * A word, number or string of the text that no node's span covers: a part of the query that
 * the parser dropped without saying so. (Tokens are read in filter mode, a fair approximation.)
 */
function uncoveredToken(source: SourceText, query: unknown): string | null {
  const spans: Span[] = [];
  collectSpans(query, spans, true);
  const lexer = new Lexer(source);
  for (let offset = 0; ;) {
    const token = lexer.read(offset, 'filter');
    if (token.kind === 'eof') return null;
    const start = token.span.start.offset;
    const content = ['word', 'number', 'single', 'double', 'backtick'].includes(token.kind);
    if (content && !spans.some((span) => span.start.offset <= start && start < span.end.offset)) return `'${token.text}' at ${start}`;
    offset = token.span.end.offset;
  }
}

function collectSpans(node: unknown, out: Span[], root: boolean): void {
  if (Array.isArray(node)) for (const child of node) collectSpans(child, out, false);
  else if (node !== null && typeof node === 'object') {
    const span = (node as { span?: Span }).span;
    if (span && !root) out.push(span);
    for (const [key, child] of Object.entries(node)) if (key !== 'span') collectSpans(child, out, false);
  }
}

function sameTree(a: unknown, b: unknown): boolean {
  const withoutSpans = (key: string, value: unknown): unknown => (key === 'span' ? undefined : value);
  return JSON.stringify(a, withoutSpans) === JSON.stringify(b, withoutSpans);
}

/**
 * Reads an uploaded lookup table: CSV (RFC 4180) whose first line names the columns. Fields may
 * be quoted (`"a,b"`, `""` for a quote, line breaks inside quotes); lines end with LF or CRLF; a
 * UTF-8 byte order mark is dropped. Every problem is reported at once, each with its line.
 */
import { ValidationError, errorDiagnostic, hasControlCharacters, type Diagnostic } from '../core/index.js';

export interface LookupCsv {
  readonly columns: readonly string[];
  /** Every data line's cells, as many as there are columns. */
  readonly rows: readonly (readonly string[])[];
}

/** The limits of one lookup table (docs/compatibility.md). */
export const lookupCsvLimits = { maxBytes: 16 * 1024 * 1024, maxRows: 500_000, maxColumns: 100, maxColumnNameLength: 200 } as const;

const maxProblems = 20;

/** Parses and checks the file; ValidationError on `file` with every problem in `diagnostics`. */
export function readLookupCsv(text: string): LookupCsv {
  const problems: Diagnostic[] = [];
  const problem = (line: number, message: string): void => {
    if (problems.length < maxProblems) problems.push(errorDiagnostic('invalid_lookup_table', `line ${line}: ${message}`, { field: 'file' }));
  };
  const records = splitRecords(text.startsWith('\uFEFF') ? text.slice(1) : text, problem);
  const [header, ...data] = records;
  if (header === undefined || (header.cells.length === 1 && header.cells[0] === '')) {
    throw new ValidationError('the file is empty: its first line must name the columns', { field: 'file' });
  }
  const columns = header.cells.map((c) => c.trim());
  if (columns.length > lookupCsvLimits.maxColumns) problem(1, `${columns.length} columns, at most ${lookupCsvLimits.maxColumns} are allowed`);
  const seen = new Set<string>();
  columns.forEach((name, i) => {
    if (name === '') problem(1, `column ${i + 1} has no name`);
    else if (name.length > lookupCsvLimits.maxColumnNameLength || hasControlCharacters(name))
      problem(1, `column ${i + 1} must be a name of at most ${lookupCsvLimits.maxColumnNameLength} characters without control characters`);
    else if (seen.has(name)) problem(1, `column ${JSON.stringify(name)} is named twice`);
    seen.add(name);
  });
  if (data.length > lookupCsvLimits.maxRows) problem(data[lookupCsvLimits.maxRows]?.line ?? 1, `more than ${lookupCsvLimits.maxRows} rows`);
  for (const record of data) {
    if (record.cells.length !== columns.length) problem(record.line, `${record.cells.length} fields where the header has ${columns.length}`);
  }
  if (problems.length > 0) {
    throw new ValidationError(
      `invalid lookup table: ${problems[0]?.message}${problems.length > 1 ? ` and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''}` : ''}`,
      {
        field: 'file',
        diagnostics: problems,
      },
    );
  }
  return { columns, rows: data.map((r) => r.cells) };
}

interface CsvRecord {
  readonly line: number;
  readonly cells: string[];
}

/** Splits the text into records of fields; blank lines between records are skipped. */
function splitRecords(text: string, problem: (line: number, message: string) => void): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let wasQuoted = false;
  const endField = (): void => {
    cells.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = (): void => {
    const blank = cells.length === 0 && field === '' && !wasQuoted;
    endField();
    if (!blank) records.push({ line: recordLine, cells });
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '' && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') endField();
    else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (wasQuoted) problem(line, `text after the closing quote of a field`);
    else field += c;
  }
  if (quoted) problem(recordLine, 'a quoted field is never closed');
  if (field !== '' || cells.length > 0 || wasQuoted) endRecord();
  return records;
}

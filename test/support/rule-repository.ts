/**
 * Small rule repositories for sync tests: rule files written here (never copied from a dataset),
 * zipped like a GitHub zipball or a plain zip, and multipart uploads of them.
 */
import { strToU8, zipSync } from 'fflate';

export interface RuleFileOptions {
  /** The `eventName` the rule looks for (default: the name). */
  readonly event?: string;
  readonly severity?: string;
  readonly enabled?: string;
  readonly sinkKeys?: readonly string[];
  /** What the one test expects: give false for a test that fails (its dataset does match). */
  readonly expect?: boolean;
  readonly description?: string;
}

/** A Scanner-style rule file with one test whose dataset holds one matching event. */
export function ruleFile(name: string, options: RuleFileOptions = {}): string {
  const event = options.event ?? name.replace(/\W+/g, '');
  return [
    '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json',
    `name: ${name}`,
    `description: ${options.description ?? `fires on ${event}`}`,
    `enabled: ${options.enabled ?? 'Active'}`,
    `severity: ${options.severity ?? 'High'}`,
    `query_text: 'eventName: "${event}"'`,
    'time_range_s: 300',
    'run_frequency_s: 60',
    ...(options.sinkKeys ? [`event_sink_keys: [${options.sinkKeys.join(', ')}]`] : []),
    'tests:',
    `  - name: fires on ${event}`,
    '    now_timestamp: "2026-05-15T00:03:00.000Z"',
    '    dataset_format: RawJson',
    '    dataset_inline: |',
    `      {"@scnr":{"datetime":"2026-05-15T00:02:30.000Z"},"eventName":"${event}"}`,
    `    expected_detection_result: ${options.expect ?? true}`,
    '',
  ].join('\n');
}

/** A zip of the files; with `folder`, everything under it, as GitHub's zipballs are. */
export function zipOf(files: Readonly<Record<string, string>>, folder?: string): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [`${folder ? `${folder}/` : ''}${path}`, strToU8(text)])));
}

/** A multipart/form-data body with these fields and, when given, one file. */
export async function multipartOf(fields: Readonly<Record<string, string>>, file?: Uint8Array): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([file], { type: 'application/zip' }), 'repository.zip');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

import type { SettingValue } from '../query-settings.js';

export interface ClickHouseHttpTarget {
  readonly url: string;
  readonly database?: string;
  readonly username?: string;
  readonly password?: string;
}

export interface HttpStatementOptions {
  /** Output format (`X-ClickHouse-Format`); the server default when omitted. */
  readonly format?: string;
  /** Settings sent as URL parameters (the insert's; queries carry theirs in SQL). */
  readonly settings?: Readonly<Record<string, SettingValue>>;
  /** Insert payload: the SQL then travels in the `query` parameter. */
  readonly body?: string | Uint8Array;
  readonly signal?: AbortSignal;
}

/** A failed statement: the server's `Code: N. DB::Exception: ...` text and code. */
export class ClickHouseHttpError extends Error {
  constructor(
    message: string,
    readonly clickhouseCode: number | undefined,
  ) {
    super(message);
    this.name = 'ClickHouseHttpError';
  }
}

/**
 * The ClickHouse HTTP interface over global fetch. Credentials travel as headers because fetch
 * refuses URLs that carry them.
 */
export class ClickHouseHttpClient {
  private readonly base: URL;
  private readonly headers: Record<string, string> = {};

  constructor(target: ClickHouseHttpTarget) {
    this.base = new URL(target.url);
    const username = target.username ?? decodeURIComponent(this.base.username);
    const password = target.password ?? decodeURIComponent(this.base.password);
    this.base.username = '';
    this.base.password = '';
    if (username) this.headers['X-ClickHouse-User'] = username;
    if (password) this.headers['X-ClickHouse-Key'] = password;
    if (target.database !== undefined) this.base.searchParams.set('database', target.database);
  }

  /** Runs one statement and returns the whole answer; the server buffers it so errors get a status. */
  async send(sql: string, options: HttpStatementOptions): Promise<string> {
    const response = await this.post(sql, { ...options, settings: { wait_end_of_query: 1, ...options.settings } });
    return response.text();
  }

  /** Runs one statement and yields its complete answer lines as they arrive. */
  async *streamLines(sql: string, options: HttpStatementOptions): AsyncGenerator<string[]> {
    const response = await this.post(sql, options);
    if (!response.body) return;
    const decoder = new TextDecoder();
    let pending = '';
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      const end = pending.lastIndexOf('\n');
      if (end < 0) continue;
      const lines = pending.slice(0, end).split('\n');
      pending = pending.slice(end + 1);
      yield checkedLines(lines);
    }
    pending += decoder.decode();
    if (pending.trim() !== '') yield checkedLines([pending]);
  }

  private async post(sql: string, options: HttpStatementOptions): Promise<Response> {
    const url = new URL(this.base);
    for (const [name, value] of Object.entries(options.settings ?? {})) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...this.headers };
    if (options.format !== undefined) headers['X-ClickHouse-Format'] = options.format;
    let body: string | Uint8Array = sql;
    if (options.body !== undefined) {
      url.searchParams.set('query', sql);
      body = options.body;
    }
    const init: RequestInit = { method: 'POST', headers, body };
    if (options.signal) init.signal = options.signal;
    const response = await fetch(url, init);
    if (!response.ok) {
      const message = (await response.text()).trim();
      const code = response.headers.get('X-ClickHouse-Exception-Code');
      throw new ClickHouseHttpError(message || `http status ${response.status}`, code === null ? undefined : Number(code));
    }
    return response;
  }
}

// Once the status line is sent, a server that fails mid-stream can only append its exception
// text to the body: a line that is not a JSON row is that exception.
function checkedLines(lines: string[]): string[] {
  const rows = lines.filter((line) => line.trim() !== '');
  const failure = rows.find((line) => !line.startsWith('{'));
  if (failure === undefined) return rows;
  const code = /Code:\s*(\d+)/.exec(failure)?.[1];
  throw new ClickHouseHttpError(failure, code === undefined ? undefined : Number(code));
}

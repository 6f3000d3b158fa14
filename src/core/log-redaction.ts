/**
 * What logs must never show: credentials in URLs (`?api_key=…`, `user:password@`) and in
 * headers. Applied where every log line is written (the process logger's serializers), so a
 * credential a client sends in the wrong place (a refused `?api_key=`) is not kept verbatim.
 */

/** Shown in place of a credential. */
export const redactedText = '[redacted]';

// Parameter and header names that carry credentials: api_key, access_token, X-Api-Key, sig, …
const credentialName = /(?:key|token|secret|passw(?:or)?d|pwd|auth|credential|session|cookie|signature|^sig$|^code$)/i;

/** True for a query parameter or header name whose value is a credential. */
export function isCredentialName(name: string): boolean {
  return credentialName.test(name);
}

/**
 * The URL (absolute, or a path with a query as a request line has it) with the password of its
 * user part and the value of every credential parameter replaced by `[redacted]`. Text that is
 * not a URL comes back with its query redacted all the same; the rest is left as it is.
 */
export function redactUrl(text: string): string {
  let out = text.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i, (_all, scheme: string, user: string) => {
    const colon = user.indexOf(':');
    return `${scheme}${colon === -1 ? redactedText : `${user.slice(0, colon)}:${redactedText}`}@`;
  });
  const query = out.indexOf('?');
  if (query === -1) return out;
  const hash = out.indexOf('#', query);
  const end = hash === -1 ? out.length : hash;
  const params = out
    .slice(query + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isCredentialName(safeDecode(name)) ? `${name}=${redactedText}` : pair;
    });
  out = `${out.slice(0, query + 1)}${params.join('&')}${out.slice(end)}`;
  return out;
}

/** A copy of headers (as Node gives them) with every credential header's value replaced. */
export function redactHeaders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isCredentialName(name) ? redactedText : value;
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

// Keys whose string value is a URL: `url`, `href`, `api_url`, `webhookUrl`.
const urlKey = /(?:^|_|[a-z])(?:url|href|Url|URL)$/;

/**
 * A log line's fields with credentials redacted wherever they sit (nested plain objects too, a
 * few levels down): URL-valued fields through `redactUrl`, `headers` objects through
 * `redactHeaders`. The process logger runs every line through it; objects with a class of
 * their own (a request, an error) are left to their serializers.
 */
export function redactLogFields(fields: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const key in fields) {
    const value = fields[key];
    let redacted = value;
    if (typeof value === 'string') {
      if (urlKey.test(key)) redacted = redactUrl(value);
    } else if (isPlainObject(value) && depth < 4) {
      redacted = key === 'headers' ? redactHeaders(value as Record<string, unknown>) : redactLogFields(value as Record<string, unknown>, depth + 1);
    }
    if (redacted !== value) {
      out ??= { ...fields };
      out[key] = redacted;
    }
  }
  return out ?? fields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Lone UTF-16 surrogates (a `\ud800` escape with no low half after it, a `\udc00` with no high
 * half before it) are valid JSON but not text: the engine refuses them, and one such string once
 * failed the whole batch it was in. Ingest stores U+FFFD in their place, as it does for invalid
 * UTF-8 bytes (docs/ingest.md, "Lines"), so the event is kept and reads back as it was stored.
 */

/** A `\uD800`–`\uDFFF` escape in JSON text, either letter case; may be half of a valid pair. */
const surrogateEscape = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * The JSON text with U+FFFD for every lone surrogate: each lone `\uXXXX` escape becomes
 * `\ufffd`, each lone surrogate character U+FFFD. Pairs (`\ud83d\ude00`) and escaped backslashes
 * (`\\ud800` is a backslash and the letters `ud800`) are left as they are.
 */
export function wellFormedJsonText(jsonText: string): string {
  const text = jsonText.toWellFormed();
  if (!surrogateEscape.test(text)) return text;
  let out = '';
  let copied = 0;
  // Escapes are read from the left, two characters or six at a time, so `\\` never starts one.
  for (let at = text.indexOf('\\'); at !== -1;) {
    if (text.charCodeAt(at + 1) !== 0x75 /* u */) {
      at = text.indexOf('\\', at + 2);
      continue;
    }
    const unit = escapedUnit(text, at);
    if (isHighSurrogate(unit) && isLowSurrogate(escapedUnit(text, at + 6))) {
      at = text.indexOf('\\', at + 12);
      continue;
    }
    if (isHighSurrogate(unit) || isLowSurrogate(unit)) {
      out += text.slice(copied, at) + '\\ufffd';
      copied = at + 6;
    }
    at = text.indexOf('\\', at + 6);
  }
  return out + text.slice(copied);
}

/** The code unit of the `\uXXXX` escape at `at`, or -1 when there is none. */
function escapedUnit(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x5c || text.charCodeAt(at + 1) !== 0x75) return -1;
  const hex = text.slice(at + 2, at + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : -1;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * A copy of a parsed JSON value in which every string and every object key holds U+FFFD for
 * each lone surrogate. Keys that become equal keep the later value, as duplicate keys do.
 */
export function wellFormedValue(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(wellFormedValue);
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) {
    const item = wellFormedValue((value as Record<string, unknown>)[key]);
    // `__proto__` as an own key, never the prototype
    Object.defineProperty(out, key.toWellFormed(), { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

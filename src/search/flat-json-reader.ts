/**
 * Reads ClickHouse's `toJSONString(attrs)` back into flat columns. The JSON type nests paths at
 * dots, and a path that is a prefix of another (`a` and `a.b`) comes out as a repeated key
 * (`{"a":"x","a":{"b":1}}`), which JSON.parse would collapse. This reader walks the text and
 * reports every leaf with its dotted path instead, so no column is lost.
 */

export type FlatLeaf = string | number;

/** Calls `emit` for each leaf of the JSON object text, in text order. */
export function readFlatJson(text: string, emit: (path: string, value: FlatLeaf) => void): void {
  const reader = new Reader(text);
  reader.skipSpace();
  reader.object('', emit);
}

class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  skipSpace(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at] as string)) this.at++;
  }

  private expect(ch: string): void {
    if (this.text[this.at] !== ch) throw new Error(`engine JSON: expected '${ch}' at offset ${this.at}`);
    this.at++;
  }

  object(prefix: string, emit: (path: string, value: FlatLeaf) => void): void {
    this.expect('{');
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.skipSpace();
      this.expect(':');
      this.skipSpace();
      this.value(prefix === '' ? key : `${prefix}.${key}`, emit);
      this.skipSpace();
      if (this.text[this.at] === ',') {
        this.at++;
        continue;
      }
      this.expect('}');
      return;
    }
  }

  private value(path: string, emit: (path: string, value: FlatLeaf) => void): void {
    const ch = this.text[this.at];
    if (ch === '{') this.object(path, emit);
    else if (ch === '"') emit(path, this.string());
    else if (ch === 'n' && this.text.startsWith('null', this.at)) this.at += 4;
    else if (ch === 't' && this.text.startsWith('true', this.at)) {
      this.at += 4;
      emit(path, 'true');
    } else if (ch === 'f' && this.text.startsWith('false', this.at)) {
      this.at += 5;
      emit(path, 'false');
    } else emit(path, this.number());
  }

  private number(): number {
    const start = this.at;
    while (this.at < this.text.length && '+-0123456789.eE'.includes(this.text[this.at] as string)) this.at++;
    const value = Number(this.text.slice(start, this.at));
    if (this.at === start || Number.isNaN(value)) throw new Error(`engine JSON: bad number at offset ${start}`);
    return value;
  }

  private string(): string {
    const start = this.at;
    this.expect('"');
    // find the closing quote, skipping escaped characters, then let JSON.parse unescape
    while (this.at < this.text.length) {
      const ch = this.text.charCodeAt(this.at);
      if (ch === 0x5c) this.at += 2;
      else if (ch === 0x22) break;
      else this.at++;
    }
    this.expect('"');
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }
}

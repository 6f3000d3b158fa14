import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';

/** Below this many bytes a run holding non-ASCII bytes is decoded whole rather than split further. */
const smallestSplit = 4096;

/**
 * Longest run of lines decoded into one string (a longer line is one run). V8 puts a string over
 * 128 KiB straight into the old generation, and the 1 MiB runs of a gunzipped file, all decoded
 * before the first was read, outlived scavenges: 0.45 GB of a Windows ingest was promoted, 0.12
 * GB with these runs (docs/benchmarks-journal.md, "Events walked into the encoder"). Runs this
 * short are born young and die young, as their lines are parsed within a millisecond or two.
 */
const maxRunBytes = 64 * 1024;

const newline = 0x0a;

/**
 * UTF-8 decoding of a stream of byte chunks into text (invalid bytes become U+FFFD), as
 * `StringDecoder` does, faster for what logs mostly are: ASCII lines with a rare non-ASCII one.
 *
 * A chunk holding one non-ASCII byte made the whole chunk a two-byte string, decoded at about
 * 10 ns a byte, and every line sliced from it two-byte for parsing and encoding after (a Windows
 * replay: 28 % of its 64 KiB chunks, for 199 k non-ASCII bytes in 597 MB). Here the complete
 * lines of a chunk are cut into runs at line ends: an ASCII run becomes a one-byte string by a
 * copy (Latin-1 decoding, which is exact for ASCII), and only the lines around a non-ASCII
 * byte are decoded as UTF-8. A character is never split: the runs end after a `\n`, and the
 * bytes before a chunk's first `\n` and after its last one go through a `StringDecoder`, which
 * keeps an incomplete character for the next chunk.
 */
export class Utf8ChunkDecoder {
  private readonly edges = new StringDecoder('utf8');

  /**
   * The text of one more chunk, as one or more strings in order, each decoded when asked for:
   * a run's string then lives only while its lines are read (see `maxRunBytes`).
   */
  *write(chunk: Buffer): Generator<string> {
    const first = chunk.indexOf(newline);
    if (first < 0) return yield* nonEmpty(this.edges.write(chunk));
    const last = chunk.lastIndexOf(newline);
    // After the first `\n` the edge decoder holds no partial character (a `\n` ends any).
    yield* nonEmpty(this.edges.write(chunk.subarray(0, first + 1)));
    yield* decodeLines(chunk, first + 1, last + 1);
    if (last + 1 < chunk.length) yield* nonEmpty(this.edges.write(chunk.subarray(last + 1)));
  }

  /** What an incomplete character left at the end becomes (U+FFFD), or ''. */
  end(): string {
    return this.edges.end();
  }
}

/** Decodes bytes [from, to), which hold whole lines, in runs of lines of at most `maxRunBytes`, each when asked for. */
function* decodeLines(chunk: Buffer, from: number, to: number): Generator<string> {
  while (from < to) {
    let end = to;
    if (to - from > maxRunBytes) {
      const cut = chunk.lastIndexOf(newline, from + maxRunBytes - 1) + 1;
      // a line longer than a run is a run of its own
      end = cut > from ? cut : chunk.indexOf(newline, from + maxRunBytes) + 1;
    }
    const out: string[] = [];
    decodeRun(chunk, from, end, out);
    yield* out;
    from = end;
  }
}

/** Decodes bytes [from, to), which hold whole lines, into `out`: ASCII runs copied, the rest decoded as UTF-8. */
function decodeRun(chunk: Buffer, from: number, to: number, out: string[]): void {
  if (from >= to) return;
  const run = chunk.subarray(from, to);
  if (isAscii(run)) {
    out.push(run.toString('latin1'));
    return;
  }
  if (to - from <= smallestSplit) {
    out.push(run.toString('utf8'));
    return;
  }
  // Cut at a line end near the middle, so each half holds whole lines and characters.
  const middle = chunk.lastIndexOf(newline, from + ((to - from) >> 1));
  const cut = middle < from ? chunk.indexOf(newline, from + ((to - from) >> 1)) + 1 : middle + 1;
  if (cut <= from || cut >= to) {
    out.push(run.toString('utf8'));
    return;
  }
  decodeRun(chunk, from, cut, out);
  decodeRun(chunk, cut, to, out);
}

function nonEmpty(text: string): string[] {
  return text.length > 0 ? [text] : [];
}

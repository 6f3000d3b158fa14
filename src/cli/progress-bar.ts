import { formatBytes, formatCount } from './output.js';

/**
 * A one-line ingest progress display on stderr: bytes read (of the total when known), events,
 * events per second. Redrawn at most every 100 ms, and only on a terminal.
 */
export class ProgressBar {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly enabled: boolean,
    private readonly startedMs: number,
    private readonly now: () => number,
  ) {}

  update(bytesRead: number, totalBytes: number | null, events: number, rejected: number, force = false): void {
    if (!this.enabled) return;
    const now = this.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = Math.max((now - this.startedMs) / 1000, 0.001);
    const width = 24;
    const ratio = totalBytes ? Math.min(bytesRead / totalBytes, 1) : null;
    const bar = ratio === null ? '' : `[${'#'.repeat(Math.round(ratio * width)).padEnd(width, '.')}] ${(ratio * 100).toFixed(0).padStart(3)}% `;
    const size = totalBytes ? `${formatBytes(bytesRead)}/${formatBytes(totalBytes)}` : formatBytes(bytesRead);
    const text = `${bar}${size}  ${formatCount(events)} events  ${formatCount(events / seconds)} events/s${rejected ? `  ${formatCount(rejected)} rejected` : ''}`;
    this.out.write(`\r\x1b[2K${text}`);
    this.drawn = true;
  }

  /** Clears the line so the summary starts clean. */
  finish(): void {
    if (this.enabled && this.drawn) this.out.write('\r\x1b[2K');
  }
}

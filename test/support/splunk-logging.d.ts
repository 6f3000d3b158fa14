/** splunk-logging ships no types: the part of its Logger the HEC test uses. */
declare module 'splunk-logging' {
  type Callback = (error: unknown, response: unknown, body: unknown) => void;
  export class Logger {
    constructor(config: { token: string; url: string; maxBatchCount?: number });
    send(context: { message: unknown; severity?: string; metadata?: Record<string, unknown> }, callback?: Callback): void;
    flush(callback?: Callback): void;
  }
}

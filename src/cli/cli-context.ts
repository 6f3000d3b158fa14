import type { ConfigOverrides, VigilConfig } from '../config/index.js';
import type { Services } from '../services/index.js';
import type { Engine } from '../engine/index.js';

/** What a CLI command gets from the composition root (bin.ts): no concrete adapter is named here. */
export interface CliContext {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  /** True when stderr is a terminal: progress bars are drawn only then. */
  readonly interactive: boolean;
  loadConfig(overrides: ConfigOverrides): VigilConfig;
  /**
   * Opens store (and engine) services; rejects with a DataDirBusy error when a server holds the
   * engine, and when the data dir is missing unless `createDataDir` (commands that create data).
   */
  openServices(config: VigilConfig, withEngine: boolean, options?: OpenOptions): Promise<OpenedServices>;
  /** Runs `vigil serve` until the process is asked to stop. */
  serve(config: VigilConfig): Promise<void>;
  /** The running server of a data dir, if one announced itself. */
  runningServer(dataDir: string): { url: string; pid: number } | null;
  /** True for the error openServices raises when another process holds the engine. */
  isDataDirBusy(error: unknown): boolean;
  nowMs(): number;
  /**
   * Copies the data dir's embedded store into the empty PostgreSQL store at `url` (`vigil
   * migrate-store`); `onTable` hears of each table once copied. Answers the rows per table and
   * the target as it may be shown (no password). Absent where the build has no PostgreSQL store.
   */
  copyEmbeddedStore?(config: VigilConfig, url: string, onTable: (table: string, rows: number) => void): Promise<StoreCopy>;
  /**
   * A temporary events engine for offline rule tests (`vigil rules test`), removed on close.
   * Absent where the build has none; then tests run only on a server.
   */
  openScratchEngine?(): Promise<ScratchEngine>;
}

/** What `copyEmbeddedStore` copied. */
export interface StoreCopy {
  readonly tables: readonly { readonly table: string; readonly rows: number }[];
  /** The target's URL without its password. */
  readonly target: string;
}

/** An events engine of its own for one command, thrown away afterwards. */
export interface ScratchEngine {
  readonly engine: Engine;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Create a missing data dir (ingest, index create, keys create); other commands need one. */
  readonly createDataDir?: boolean;
}

export interface OpenedServices {
  readonly services: Services;
  close(): Promise<void>;
}

/** Global options every command accepts. */
export interface GlobalOptions {
  readonly dataDir?: string;
  readonly config?: string;
}

/** Turns global flags into config overrides. */
export function overridesOf(options: GlobalOptions): ConfigOverrides {
  return { ...(options.dataDir ? { dataDir: options.dataDir } : {}), ...(options.config ? { configFile: options.config } : {}) };
}

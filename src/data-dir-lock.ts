import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { VigilError, ErrorCodes } from './core/index.js';
import { removeFile } from './data-dir.js';

/** What a running server leaves in its data dir so CLI commands can reach it over HTTP. */
export interface ServerInfo {
  readonly pid: number;
  readonly url: string;
}

/** The data dir's engine is held by another live process. */
export class DataDirBusyError extends VigilError {
  constructor(
    readonly holderPid: number,
    readonly server: ServerInfo | null,
  ) {
    super(ErrorCodes.unavailable, `the data dir is in use by process ${holderPid}${server ? ` (the server at ${server.url})` : ''}`);
  }
}

/**
 * An exclusive lock on the events engine of a data dir. ClickHouse files must be written by one
 * process only, so the server and in-process CLI commands take this lock before opening the
 * engine. A lock left by a dead process is taken over.
 */
export class DataDirLock {
  private constructor(private readonly path: string) {}

  static acquire(dataDir: string): DataDirLock {
    const path = join(dataDir, 'engine.lock');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return new DataDirLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = Number(readFileSafe(path));
        if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
          throw new DataDirBusyError(holder, readServerInfo(dataDir));
        }
        removeFile(path);
      }
    }
    throw new VigilError(ErrorCodes.unavailable, `could not lock ${path}`);
  }

  release(): void {
    removeFile(this.path);
  }
}

/** The running server's address, when one has announced itself in the data dir. */
export function readServerInfo(dataDir: string): ServerInfo | null {
  const text = readFileSafe(join(dataDir, 'server.json'));
  if (!text) return null;
  try {
    const info = JSON.parse(text) as ServerInfo;
    return typeof info.url === 'string' && Number.isInteger(info.pid) && isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

function readFileSafe(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

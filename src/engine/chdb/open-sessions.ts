import { Session } from 'chdb';
import { EngineError, ErrorCodes, messageOf } from '../../core/index.js';
import { readDataDirectoryOwner } from './data-directory-owner.js';

/**
 * Opens `count` sessions on one data path. chDB allows one data path per process and locks it
 * against other processes (flock on `<path>/status`); a failure to open names the owner so the
 * CLI can tell "a server is running" from a broken directory.
 */
export function openSessions(path: string, count: number): Session[] {
  const sessions: Session[] = [];
  try {
    for (let i = 0; i < count; i++) sessions.push(new Session(path));
    return sessions;
  } catch (cause) {
    for (const session of sessions) session.close();
    const owner = readDataDirectoryOwner(path);
    const holder = owner && owner.pid !== process.pid && isAlive(owner.pid) ? ` (held by pid ${owner.pid} since ${owner.startedAt})` : '';
    throw new EngineError(`opening engine data directory ${path}${holder}: ${messageOf(cause)}`, {
      code: ErrorCodes.unavailable,
      cause,
    });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, messageOf } from '../core/index.js';
import type { VigilConfig } from '../config/index.js';

/** The key a command sends to a running server: `--api-key`, then VIGIL_API_KEY, then the bootstrap key. */
export function serverApiKey(config: VigilConfig, given: string | undefined): string {
  if (given) return given;
  if (config.cliApiKey) return config.cliApiKey;
  try {
    return readFileSync(join(config.dataDir, 'bootstrap-key'), 'utf8').trim();
  } catch (error) {
    throw new ConfigError(`no API key was given and ${config.dataDir} has no bootstrap key: pass --api-key or set VIGIL_API_KEY (${messageOf(error)})`);
  }
}

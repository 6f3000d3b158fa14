import { randomBytes } from 'node:crypto';
import { createServices, type Services } from '../../services/index.js';
import { ManualClock, SecretBox, silentLogger } from '../../core/index.js';
import type { Store } from '../../store/index.js';

/**
 * Services over a migrated store and no engine, as CLI commands that work beside a running
 * server see them; the clock stands at `nowMs`.
 */
export function storeOnlyServices(store: Store, nowMs: number): Services {
  return createServices({
    store,
    engine: null,
    clock: new ManualClock(nowMs),
    logger: silentLogger,
    ingest: { batchRows: 1000, batchBytes: 1 << 20 },
    secrets: new SecretBox(() => randomBytes(32)),
    allowPrivateDestinations: false,
  });
}

import type { Clock } from '../core/index.js';
import type { LeaseRepository } from '../store/index.js';

/**
 * One process's leases on shared work (docs/scale-out.md): a rule's windows, the detection
 * shipper, maintenance. Every claim renews for `durationMs` from now; the process remembers what
 * it holds so a clean stop hands everything back at once instead of letting it expire.
 */
export class WorkLeases {
  private readonly held = new Set<string>();

  constructor(
    private readonly leases: LeaseRepository,
    /** This process's name as lease holder (unique per process start). */
    readonly holder: string,
    private readonly clock: Clock,
  ) {}

  /** Takes or renews the lease; false while another live process holds it. */
  async claim(name: string, durationMs: number): Promise<boolean> {
    const now = this.clock.nowMs();
    const claimed = await this.leases.claim(name, this.holder, now, now + durationMs);
    if (claimed) this.held.add(name);
    else this.held.delete(name);
    return claimed;
  }

  /** Hands the lease back (if held), so another process can take the work at once. */
  async release(name: string): Promise<void> {
    if (!this.held.delete(name)) return;
    await this.leases.release(name, this.holder);
  }

  /** Hands back every lease this process holds (a clean stop). */
  async releaseAll(): Promise<void> {
    const names = [...this.held];
    this.held.clear();
    await Promise.all(names.map((name) => this.leases.release(name, this.holder).catch(() => undefined)));
  }

  /** The lease to require at commit time, so a result is dropped once another process took the work over. */
  proof(name: string): { readonly name: string; readonly holder: string } {
    return { name, holder: this.holder };
  }
}

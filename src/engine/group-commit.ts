/**
 * Writes queued items in groups: an item that arrives while `concurrency` writes are in flight
 * waits, and the next write takes every item waiting then (up to `maxGroupBytes`), so concurrent
 * callers share one write. An item that finds a write free goes at once: grouping adds no wait.
 *
 * Why: an insert into `logs` costs the engine about 45 ms of CPU whatever its size (a compact
 * part of some 150 columns and two text indexes), and a batch's extents and catalog rows about
 * 11 ms each more, so shippers posting a few events per request paid that per request: 20 events
 * a request cost 6.4-10.2 ms of server CPU per event (docs/engine.md, "Inserts in groups").
 */
export interface GroupCommitOptions {
  /** Writes in flight at once (two let one insert run while the next is encoded and staged). */
  readonly concurrency: number;
  /** A group takes no more items once this many bytes are in it (a larger item goes alone). */
  readonly maxGroupBytes: number;
}

interface Queued<T> {
  readonly item: T;
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommit<T> {
  private readonly queue: Queued<T>[] = [];
  private writing = 0;

  constructor(
    private readonly writeGroup: (items: readonly T[]) => Promise<void>,
    private readonly options: GroupCommitOptions,
  ) {}

  /**
   * Queues `item` (`bytes` long) and settles once a write holding it succeeded, or failed with it
   * alone: when a group fails, each of its items is written again by itself, so one batch the
   * engine refuses fails only its own caller.
   */
  commit(item: T, bytes: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, bytes, resolve, reject });
      this.startWrites();
    });
  }

  /**
   * Queues items together, so that a free write takes them as one group (as far as
   * `maxGroupBytes` allows), and settles with each item's own outcome, in order.
   */
  commitAll(items: readonly { readonly item: T; readonly bytes: number }[]): Promise<PromiseSettledResult<void>[]> {
    const settled = items.map(
      ({ item, bytes }) =>
        new Promise<void>((resolve, reject) => {
          this.queue.push({ item, bytes, resolve, reject });
        }),
    );
    this.startWrites();
    return Promise.allSettled(settled);
  }

  private startWrites(): void {
    while (this.writing < this.options.concurrency && this.queue.length > 0) {
      const group = this.takeGroup();
      this.writing++;
      void this.write(group).finally(() => {
        this.writing--;
        this.startWrites();
      });
    }
  }

  /** The oldest item and those after it, in order, while they fit in `maxGroupBytes`. */
  private takeGroup(): Queued<T>[] {
    const first = this.queue.shift() as Queued<T>;
    const group = [first];
    let bytes = first.bytes;
    for (let next = this.queue[0]; next !== undefined && bytes + next.bytes <= this.options.maxGroupBytes; next = this.queue[0]) {
      group.push(this.queue.shift() as Queued<T>);
      bytes += next.bytes;
    }
    return group;
  }

  private async write(group: readonly Queued<T>[]): Promise<void> {
    try {
      await this.writeGroup(group.map((queued) => queued.item));
      for (const queued of group) queued.resolve();
      return;
    } catch (error) {
      if (group.length === 1) return (group[0] as Queued<T>).reject(error);
    }
    for (const queued of group) {
      try {
        await this.writeGroup([queued.item]);
        queued.resolve();
      } catch (error) {
        queued.reject(error);
      }
    }
  }
}

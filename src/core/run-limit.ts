import { TooManyRequestsError } from './errors.js';

/**
 * Admits at most `perCaller` runs of one caller and `total` runs in all at once, and refuses
 * more with TooManyRequestsError (429 with Retry-After at the edge), as ad hoc queries are
 * refused over their limits: work that writes to and reads from the shared engine (rule tests)
 * must not let one caller queue unbounded work behind everyone else's.
 */
export class RunLimit {
  private readonly running = new Map<string, number>();
  private all = 0;

  constructor(
    /** What is run, for the refusal: `rule test runs`. */
    private readonly what: string,
    private readonly total: number,
    private readonly perCaller: number,
  ) {}

  async run<T>(caller: string, work: () => Promise<T>): Promise<T> {
    const mine = this.running.get(caller) ?? 0;
    if (this.all >= this.total) throw new TooManyRequestsError(`${this.what}: ${this.total} are under way, the most at once; retry shortly`, 1);
    if (mine >= this.perCaller) throw new TooManyRequestsError(`${this.what}: this caller has ${mine} under way, the most it may; retry shortly`, 1);
    this.all++;
    this.running.set(caller, mine + 1);
    try {
      return await work();
    } finally {
      this.all--;
      const left = (this.running.get(caller) ?? 1) - 1;
      if (left === 0) this.running.delete(caller);
      else this.running.set(caller, left);
    }
  }
}

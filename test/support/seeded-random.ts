/**
 * A seeded pseudo-random source (mulberry32) for fault tests: the moment of a kill is random but
 * the same on every run, and a failing run names its seed. `VIGIL_FAULT_SEED` picks another one.
 */
export interface SeededRandom {
  readonly seed: number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

export function seededRandom(defaultSeed: number): SeededRandom {
  const fromEnv = Number(process.env.VIGIL_FAULT_SEED);
  const seed = Number.isInteger(fromEnv) && process.env.VIGIL_FAULT_SEED !== '' ? fromEnv : defaultSeed;
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

// The core's only source of randomness (ARCHITECTURE rule 1): one seeded pure-rand generator,
// advanced in place. Same seed -> same sequence on every run and machine.

import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

type Generator = ReturnType<typeof xoroshiro128plus>;

/**
 * No public member names pure-rand's types: the package's declarations reach this file, and
 * pure-rand's subpath modules cannot be resolved under a consumer's `moduleResolution: node10`
 * (a CommonJS project's default), which would fail its `tsc`.
 */
export class Rng {
  private generator: Generator;

  constructor(seed: number) {
    this.generator = xoroshiro128plus(seed);
  }

  /** A generator at this one's state: both draw the same sequence from here on. */
  clone(): Rng {
    const copy = new Rng(0);
    copy.generator = this.generator.clone();
    return copy;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return (this.generator.next() >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max] (unbiased). */
  int(min: number, max: number): number {
    return uniformInt(this.generator, min, max);
  }

  /** Poisson-distributed count with mean `mean` (Knuth, in chunks to keep exp() in range). */
  poisson(mean: number): number {
    let count = 0;
    let rest = mean;
    while (rest > 0) {
      const chunk = Math.min(rest, 30);
      rest -= chunk;
      const limit = Math.exp(-chunk);
      let p = this.float();
      while (p > limit) {
        count++;
        p *= this.float();
      }
    }
    return count;
  }

  /** Exponentially distributed with mean `mean`. */
  exponential(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }
}

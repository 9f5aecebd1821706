// docs/fixture.md "Composing with your own fixtures and matchers", as written there.
import { test as base, expect as baseExpect, mergeExpects } from '@playwright/test';
import { spotSimFixtures, spotSimMatchers, type SpotSimFixtures, type SpotSimOptions } from 'spot-sim/fixture';

export const test = base
  .extend<SpotSimFixtures, SpotSimOptions>(spotSimFixtures)
  .extend<{ symbol: string }>({ symbol: async ({}, use) => use('BTCUSDT') });

const myExpect = baseExpect.extend({
  toBeEven(received: number) {
    return { pass: received % 2 === 0, message: () => `expected ${received} to be even` };
  },
});
export const expect = mergeExpects(myExpect, baseExpect.extend(spotSimMatchers));

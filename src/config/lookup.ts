// Per-symbol values with their fallbacks (spec 2.1), so callers need not repeat the rule.
import type { Config } from './types.ts';

/** The initial latent mid of `symbol`: its own `sim.symbols.<SYM>.start_mid`, else `sim.start_mid`. */
export function startMidOf(config: Config, symbol: string): string {
  return config.sim.symbols[symbol]?.start_mid ?? config.sim.start_mid;
}

/** NOTIONAL.maxNotional of `symbol` (spec 2.2), or undefined when none is configured. */
export function maxNotionalOf(config: Config, symbol: string): string | undefined {
  return config.sim.symbols[symbol]?.max_notional;
}

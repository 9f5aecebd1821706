// The public surface (API.md section 3): start a simulator, load a configuration, and the types
// a caller needs. The fixture and users import only this.

export { Simulator } from './simulator.ts';
export { startSimulator } from './start-simulator.ts';
export type { StartOptions, SimulatorUrls } from './simulator-options.ts';
export { loadConfig, resolveConfig, ConfigError } from './config/index.ts';
export type { Config, SimConfigInput } from './config/types.ts';
import { deepMerge } from './config/merge.ts';
import type { SimConfigInput } from './config/types.ts';
/**
 * @internal The deep merge `startSimulator` applies to a given tree (tables key by key, arrays
 * replace), for the fixture's config layers (spot-sim/fixture imports only this module).
 */
export function mergeSimConfig(base: SimConfigInput, over: SimConfigInput): SimConfigInput {
  return deepMerge(base, over) as SimConfigInput;
}
export { ListenError } from './net/listeners.ts';
export { Faults, type FaultCounters } from './faults/controller.ts';
export { FaultError, FaultRangeError, FaultRuleError } from './faults/checks.ts';
export type { FaultRule, FaultAction } from './faults/rule.ts';
export type { FaultRuleHandle, FaultRuleView, FaultEndpoint } from './faults/rules.ts';
export { Market, type ScriptedOrder } from './market.ts';
export type { JournalEntry } from './journal.ts';
export * from './client/index.ts';
export { connectSimulator, type ConnectOptions, type RemoteSimulator, type RemoteFaults, type RemoteMarket, type RemoteFaultRuleHandle } from './remote.ts';

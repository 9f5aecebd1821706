// The public surface (API.md section 3): start a simulator, load a configuration, and the types
// a caller needs. The fixture and users import only this.

export { startSimulator, Simulator, type StartOptions, type SimulatorUrls } from './simulator.ts';
export { loadConfig, resolveConfig, ConfigError } from './config/index.ts';
export type { Config, SimConfigInput } from './config/types.ts';
export { ListenError } from './net/listeners.ts';
export { Faults, type FaultCounters } from './faults/controller.ts';
export { FaultError, FaultRangeError, FaultRuleError } from './faults/checks.ts';
export type { FaultRule, FaultAction } from './faults/rule.ts';
export type { FaultRuleHandle, FaultRuleView, FaultEndpoint } from './faults/rules.ts';
export { Market, type ScriptedOrder } from './market.ts';
export type { JournalEntry } from './journal.ts';
export * from './client/index.ts';
export { connectSimulator, type ConnectOptions, type RemoteSimulator, type RemoteFaults, type RemoteMarket, type RemoteFaultRuleHandle } from './remote.ts';

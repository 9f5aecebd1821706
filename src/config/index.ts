// The configuration module's public names (ARCHITECTURE.md: config/ turns TOML into a
// validated, typed, frozen Config; defaults; env overrides).
export * from './load.ts';
export { readConfigFileTree, attributeTo, type LoadConfigOptions } from './load.ts';
export { UsageError, formatProblem } from './errors.ts';
export { DEFAULT_API_KEY, DEFAULT_API_SECRET, DEFAULT_CONFIG } from './defaults.ts';
export { DEFAULT_BASE_BALANCE, DEFAULT_QUOTE_BALANCE } from './balances.ts';
export { ALL_VENUES, DEFAULT_VENUE } from './instruments.ts';
export { ENV_API_KEY, ENV_API_SECRET, ENV_PORT, ENV_TLS_PORT, type Environment } from './env.ts';
export { deepMerge } from './merge.ts';
export { controlApiOffReason, exposureWarnings, isLoopback, isWildcard } from './exposure.ts';
export { deepFreeze } from './freeze.ts';
export { startMidOf, maxNotionalOf } from './lookup.ts';
export { parseCliArgs, USAGE, type CliCommand, type CliConfig, type LogFormat } from './cli-args.ts';
export { printConfigToml, describeSource, type SourceOf, type ValueSource } from './print-config.ts';
export { netBackendInEffect, redactConfig, REDACTED } from './summary.ts';

// Command line (API.md section 1): flags -> config -> start -> start block -> stats lines and the
// request log -> signals -> stop. Exit codes: 0 after SIGINT/SIGTERM, 2 usage or configuration
// error, 1 runtime failure (e.g. a port in use, named in the message). Every failure closes
// what it opened, so the process ends by itself.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, USAGE, UsageError, exposureWarnings, parseCliArgs, printConfigToml, type CliCommand } from './config/index.ts';
import { ListenError, Simulator } from './index.ts';
import { packagePath } from './package-root.ts';
import { LineOutput, Log } from './cli/output.ts';
import { startBlock, startBlockLines } from './cli/start-block.ts';

const out = new LineOutput(process.stdout);
const err = new LineOutput(process.stderr);

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** A usage or configuration problem: exit 2 with its message; anything else is not one. */
function configurationFailure(error: unknown, configFile?: string): number {
  if (error instanceof UsageError) {
    err.line(`spot-sim: ${error.message}\nRun spot-sim --help for the usage.`);
    return 2;
  }
  if (error instanceof ConfigError) {
    // A file the configuration names (TLS, keys, CSVs) is the configuration file's problem.
    const named = error.source === undefined && configFile !== undefined ? error.withSource(configFile) : error;
    err.line(`spot-sim: ${named.message}`);
    return 2;
  }
  throw error;
}

function printConfig(command: Extract<CliCommand, { kind: 'print-config' }>): void {
  const schema = pathToFileURL(packagePath('fixtures/config/spot-sim.schema.json')).href;
  const header = [
    `#:schema ${schema}`,
    `# The configuration spot-sim ${packageVersion()} runs with (spot-sim --print-config).`,
    '# After each value, where it comes from: default, file, env (an SVC_SIM_* variable) or flag.',
    '# Precedence: default < file < env < flag. Secrets are not shown.',
  ];
  out.line(printConfigToml(command.config, command.sourceOf, header).trimEnd());
}

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv, env);
  } catch (error) {
    return configurationFailure(error);
  }
  if (command.kind === 'help') return out.line(USAGE), 0;
  if (command.kind === 'version') return out.line(packageVersion()), 0;
  if (command.kind === 'print-config') return printConfig(command), 0;
  const { config } = command;
  for (const warning of exposureWarnings(config)) err.line(`spot-sim: ${warning}`);
  if (command.kind === 'check-config') {
    try {
      await Simulator.checkResolved(config);
    } catch (error) {
      if (error instanceof ConfigError || !(error instanceof Error)) return configurationFailure(error, command.configFile);
      // Everything checked here comes from the configuration: a file it names is part of it.
      err.line(`spot-sim: ${error.message}`);
      return 2;
    }
    out.line(`spot-sim: configuration is valid (${command.configFile ?? 'the embedded default'}, with the environment and flags applied)`);
    return 0;
  }
  const log = new Log(command.logFormat, out);
  // Signal handlers go in before anything listens, so a signal never meets the default action.
  let signalled: (signal: string) => void = () => undefined;
  const stopRequested = new Promise<string>((resolve) => (signalled = resolve));
  process.once('SIGINT', () => signalled('SIGINT'));
  process.once('SIGTERM', () => signalled('SIGTERM'));
  let sim: Simulator;
  try {
    sim = await Simulator.startResolved(config);
  } catch (error) {
    // A configuration problem found while starting (a history file's cells) exits 2 as above.
    if (error instanceof ConfigError) return configurationFailure(error, command.configFile);
    if (!(error instanceof ListenError)) throw error;
    const hint = error.message.includes('already in use') ? '; choose another with --port / --tls-port (or SVC_SIM_PORT / SVC_SIM_TLS_PORT), 0 = any free port' : '';
    err.line(`spot-sim: ${error.message}${hint}`);
    return 1;
  }
  const block = startBlock(config, sim.ports, packageVersion());
  log.event('start', { ...block }, () => startBlockLines(block));
  const interval = config.sim.stats_interval_ms;
  const statsTimer = interval > 0 && !command.quiet ? setInterval(() => log.event('stats', sim.stats(), () => [sim.statsLine()]), interval) : null;
  const stopLog = log.format === 'json' && !command.quiet ? sim.requestLog.subscribe((record) => log.event('request', { ...record }, () => [])) : () => undefined;

  const signal = await stopRequested;
  if (statsTimer !== null) clearInterval(statsTimer);
  stopLog();
  log.event('stop', { signal }, () => [`spot-sim: ${signal}, stopping`]);
  await sim.stop();
  return 0;
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    err.line(`spot-sim: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  },
);

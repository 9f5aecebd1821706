// Command line (API.md section 1): flags -> config -> start -> startup lines -> stats line ->
// signals -> stop. Exit codes: 0 after SIGINT/SIGTERM, 2 usage or configuration error, 1 runtime
// failure (e.g. a port in use, named in the message).
import { readFileSync } from 'node:fs';
import { ConfigError, USAGE, UsageError, exposureWarnings, netBackendInEffect, parseCliArgs } from './config/index.ts';
import { ListenError, Simulator } from './index.ts';
import { packagePath } from './package-root.ts';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let command;
  try {
    command = parseCliArgs(argv, env);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`spot-sim: ${error.message}\nRun with --help for the usage.\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`spot-sim: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const config = command.config;
  for (const warning of exposureWarnings(config)) process.stderr.write(`spot-sim: ${warning}\n`);
  // Signal handlers go in before anything listens, so a signal never meets the default action.
  let signalled: (signal: string) => void = () => undefined;
  const stopRequested = new Promise<string>((resolve) => (signalled = resolve));
  process.once('SIGINT', () => signalled('SIGINT'));
  process.once('SIGTERM', () => signalled('SIGTERM'));
  let sim;
  try {
    sim = await Simulator.startResolved(config);
  } catch (error) {
    // A configuration problem found while starting (a history file's cells) exits 2 as above.
    if (error instanceof ConfigError) {
      process.stderr.write(`spot-sim: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`spot-sim: ${error instanceof ListenError ? error.message : String(error)}\n`);
    return 1;
  }
  // Startup lines: where it listens, the symbols, the API key (never the secret), the seed.
  const lines = [
    `spot-sim ${packageVersion()} listening`,
    `http:        ${sim.urls.http}  (ws: ${sim.urls.ws})`,
    `https:       ${sim.urls.https}  (wss: ${sim.urls.wss})`,
    `symbols:     ${config.instruments.map((i) => i.symbol).join(', ')}`,
    `api key:     ${sim.credentials.apiKey}`,
    `seed:        ${config.sim.seed}`,
    `net backend: ${netBackendInEffect(config.engine.net_backend)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const interval = config.sim.stats_interval_ms;
  const statsTimer = interval > 0 && !command.quiet ? setInterval(() => process.stdout.write(`${sim.statsLine()}\n`), interval) : null;

  const signal = await stopRequested;
  if (statsTimer !== null) clearInterval(statsTimer);
  process.stdout.write(`spot-sim: ${signal}, stopping\n`);
  await sim.stop();
  return 0;
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`spot-sim: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);

// Command line (API.md section 1). For now it resolves the configuration and prints what it
// WILL serve; starting the listeners comes with src/index.ts (startSimulator).
import { readFileSync } from 'node:fs';
import { ConfigError, USAGE, UsageError, formatStartupSummary, parseCliArgs, redactConfig } from './config/index.ts';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Returns the exit code: 0 done, 2 usage or configuration error (API.md section 1). */
function main(argv: readonly string[], env: NodeJS.ProcessEnv): number {
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
  process.stdout.write(`spot-sim ${packageVersion()}: configuration resolved (listeners not started yet)\n`);
  process.stdout.write(`${formatStartupSummary(command.config)}\n`);
  if (!command.quiet) process.stdout.write(`${JSON.stringify(redactConfig(command.config), null, 2)}\n`);
  return 0;
}

// exitCode rather than exit(): lets stdout drain when piped.
process.exitCode = main(process.argv.slice(2), process.env);

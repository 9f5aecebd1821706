// `spot-sim/playwright` (API.md section 7): an entry for the `webServer` array of a
// playwright.config.ts, for suites whose app is built against one fixed exchange URL. Playwright
// starts the command once before the workers, waits until the ping URL answers, and stops it
// after them; the tests then share one exchange (one account). Suites that can take the
// exchange's URL per worker should use `spot-sim/fixture` instead (one exchange per worker).
//
// This module imports nothing from @playwright/test (a config file may load it before any
// test), and does nothing at import time.
import { packagePath, RUNNING_FROM_BUNDLE } from './package-root.ts';

/**
 * Options of `spotSimWebServer`: the shared simulator's ports, configuration file and further
 * flags, reuse and start timeout.
 * @example
 * const options: SpotSimWebServerOptions = { port: 19080, tlsPort: 19443, configFile: 'sim.toml', args: ['--seed', '42'] };
 * const server = spotSimWebServer(options);
 */
export interface SpotSimWebServerOptions {
  /** Plain HTTP/WS port of the shared simulator (`--port`). Default 9080. */
  readonly port?: number;
  /** TLS (HTTPS/WSS) port (`--tls-port`). Default 9443. */
  readonly tlsPort?: number;
  /** A TOML configuration (`--config`); relative to the Playwright config's directory. */
  readonly configFile?: string;
  /** Further command-line flags of `spot-sim` (docs/running.md), e.g. `['--seed', '42']`. */
  readonly args?: readonly string[];
  /** Reuse a simulator already listening on `port` (default: yes, except when `CI` is set). */
  readonly reuseExistingServer?: boolean;
  /** How long Playwright waits for the ping to answer, in ms. Default 30000. */
  readonly timeout?: number;
}

/**
 * The shape of one entry of Playwright's `webServer` config (structurally `TestConfigWebServer`).
 * @example
 * const entry: SpotSimWebServer = spotSimWebServer({ port: 9080 });
 * console.log(entry.command, entry.url);   // the bin with its flags, http://127.0.0.1:9080/api/v3/ping
 */
export interface SpotSimWebServer {
  /** The shell command that runs the standalone server (the package's `spot-sim` bin). */
  command: string;
  /** The simulator's ping (`GET /api/v3/ping`): Playwright waits until it answers. */
  url: string;
  reuseExistingServer: boolean;
  timeout: number;
  /** SIGTERM: the server closes its listeners and connections and exits 0. */
  gracefulShutdown: { signal: 'SIGTERM'; timeout: number };
  name: string;
  stdout: 'pipe';
  stderr: 'pipe';
}

/**
 * A `webServer` entry that starts one shared spot-sim before the workers and stops it after them.
 * @example
 * import { defineConfig } from '@playwright/test';
 * import { spotSimWebServer } from 'spot-sim/playwright';
 * export default defineConfig({ webServer: [spotSimWebServer({ port: 9080 })] });
 */
export function spotSimWebServer(options: SpotSimWebServerOptions = {}): SpotSimWebServer {
  const port = portOption('port', options.port ?? 9080);
  const tlsPort = portOption('tlsPort', options.tlsPort ?? 9443);
  const flags = ['--port', String(port), '--tls-port', String(tlsPort)];
  if (options.configFile !== undefined) flags.push('--config', options.configFile);
  flags.push(...(options.args ?? []));
  return {
    command: [...serverCommand(), ...flags].map(shellQuote).join(' '),
    url: `http://127.0.0.1:${port}/api/v3/ping`,
    reuseExistingServer: options.reuseExistingServer ?? !process.env.CI,
    timeout: options.timeout ?? 30_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    name: 'spot-sim',
    stdout: 'pipe',
    stderr: 'pipe',
  };
}

/** The bin (built JavaScript) under this Node; from the sources (this repository), through tsx. */
function serverCommand(): string[] {
  if (RUNNING_FROM_BUNDLE) return [process.execPath, packagePath('dist', 'esm', 'main.js')];
  return [process.execPath, '--import', 'tsx', packagePath('src', 'main.ts')];
}

function portOption(name: string, value: number): number {
  // Port 0 would pick a random port that Playwright's fixed ping URL could never reach.
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new RangeError(`spotSimWebServer: ${name} must be an integer from 1 to 65535 (got ${value})`);
  return value;
}

/** Quotes one word for the shell Playwright runs the command in (sh, or cmd.exe on Windows). */
function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (process.platform === 'win32') return `"${word.replace(/"/g, '""')}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

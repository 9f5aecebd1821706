// What a start reads before anything listens: the files a configuration names (the TLS
// certificate and key, the account's Ed25519 public key, the history CSVs, the replayed
// trades) and the clock. A file
// that is missing, unreadable or not what its key says is a configuration error naming the key
// and the path (the command line exits 2), never an ENOENT stack; all are reported at once.
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSecureContext } from 'node:tls';
import { ConfigError, type ConfigProblem } from './config/index.ts';
import type { Config } from './config/types.ts';
import { ManualClock, WallClock, type Clock } from './core/clock.ts';
import { failureReason } from './file-problems.ts';
import { loadMarketHistory } from './history-files.ts';
import { openRecordings, type OpenRecordings } from './replay/index.ts';
import { packagePath } from './package-root.ts';

export interface StartFiles {
  readonly tls: { readonly cert: string; readonly key: string };
  readonly ed25519PublicKeyPem: string | undefined;
  /**
   * The `[[sim.replay]]` recordings by symbol (API.md 12): opened here, once per start (a reset
   * reuses them); those read from the cache load their rows as the replay reaches them.
   */
  readonly replays: OpenRecordings;
}

/**
 * A configured path is absolute by now (loadConfig resolves the user's relative paths against
 * the TOML file or the working directory); a relative one is a default naming a file shipped in
 * the package, so it is found in the package and never in the working directory (API.md 7).
 */
export function locate(path: string): string {
  return isAbsolute(path) ? path : packagePath(path);
}

function readText(key: string, path: string, what: string, problems: ConfigProblem[]): string | undefined {
  try {
    return readFileSync(locate(path), 'utf8');
  } catch (error) {
    problems.push({ path: key, expected: `a readable ${what} file`, got: `${JSON.stringify(path)} (${failureReason(error)})` });
    return undefined;
  }
}

/** Reads and checks the files `config` names; throws one ConfigError naming every bad one. */
export async function readStartFiles(config: Config): Promise<StartFiles> {
  const { sim } = config;
  const problems: ConfigProblem[] = [];
  const cert = readText('sim.tls_cert', sim.tls_cert, 'PEM certificate', problems);
  const key = readText('sim.tls_key', sim.tls_key, 'PEM private key', problems);
  if (cert !== undefined && key !== undefined) {
    try {
      createSecureContext({ cert });
      try {
        createSecureContext({ cert, key });
      } catch (error) {
        problems.push({ path: 'sim.tls_key', expected: 'a PEM private key matching sim.tls_cert', got: `${JSON.stringify(sim.tls_key)} (${failureReason(error)})` });
      }
    } catch (error) {
      problems.push({ path: 'sim.tls_cert', expected: 'a PEM certificate', got: `${JSON.stringify(sim.tls_cert)} (${failureReason(error)})` });
    }
  }
  const ed25519Path = sim.account.ed25519_public_key_file;
  const ed25519Key = 'sim.account.ed25519_public_key_file';
  const ed25519 = ed25519Path === undefined ? undefined : readText(ed25519Key, ed25519Path, 'PEM public key', problems);
  if (ed25519 !== undefined && ed25519Path !== undefined) {
    let type: string | undefined;
    try {
      type = createPublicKey(ed25519).asymmetricKeyType;
    } catch (error) {
      type = failureReason(error);
    }
    if (type !== 'ed25519') problems.push({ path: ed25519Key, expected: 'a PEM Ed25519 public key', got: `${JSON.stringify(ed25519Path)} (${type ?? 'not a key'})` });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { tls: { cert: cert!, key: key! }, ed25519PublicKeyPem: ed25519, replays: await openRecordings(config) };
}

/** The clock a start runs on: manual from `start_time_ms` (or now), or the wall clock. */
export function startClock(config: Config): Clock {
  const { sim } = config;
  return sim.clock === 'manual'
    ? new ManualClock(sim.start_time_ms || Date.now(), sim.clock_offset_ms)
    : new WallClock({ wallMs: () => Date.now(), monotonicMs: () => performance.now() }, sim.clock_offset_ms, sim.start_time_ms);
}

/** Everything a start reads before it listens, checked without starting (throws as a start would). */
export async function checkStartInputs(config: Config): Promise<void> {
  await (await readStartFiles(config)).replays.close();
  loadMarketHistory(config, startClock(config).now());
}

// Where the package's own files are (the TLS fixture of the default config, package.json, the
// bin), found from this module's location and never from the working directory (API.md section
// 7: "found relative to it, never to the current directory").
//
// From source this file is src/package-root.ts, one folder below the root. The build
// (scripts/build.mjs) bundles it into dist/esm/*.js or dist/cjs/*.js and defines
// SPOT_SIM_BUNDLE_DEPTH as the way up from there ('../..'); `npm start`'s dist/main.mjs defines
// '..'. Only path arithmetic happens here: nothing is read at import time.
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

declare const SPOT_SIM_BUNDLE_DEPTH: string | undefined;

/** True when running from the built bundle (dist/), false when running the TypeScript sources. */
export const RUNNING_FROM_BUNDLE = typeof SPOT_SIM_BUNDLE_DEPTH === 'string';

/** The package's root folder (where its package.json is). */
export function packageRoot(): string {
  const up = typeof SPOT_SIM_BUNDLE_DEPTH === 'string' ? SPOT_SIM_BUNDLE_DEPTH : '..';
  return resolve(dirname(fileURLToPath(import.meta.url)), up);
}

/** A path inside the package. */
export function packagePath(...parts: string[]): string {
  return resolve(packageRoot(), ...parts);
}

/**
 * A configured path is absolute by now (loadConfig resolves the user's relative paths against
 * the TOML file or the working directory); a relative one is a default naming a file shipped in
 * the package, so it is found in the package and never in the working directory (API.md 7).
 */
export function locate(path: string): string {
  return isAbsolute(path) ? path : packagePath(path);
}

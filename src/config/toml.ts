// TOML text -> configuration tree (API.md section 2), with smol-toml. A syntax error becomes a
// ConfigError naming the file, line and column, like every other configuration problem.
import { parse, TomlError } from 'smol-toml';
import { ConfigError } from './errors.ts';
import type { SimConfigInput } from './types.ts';

export function parseConfigToml(text: string, sourceName = 'config.toml'): SimConfigInput {
  try {
    // Integers beyond 2^53 come back as bigint, so they are reported (integer keys) or kept
    // exact (decimal keys) rather than silently rounded.
    return parse(text, { integersAsBigInt: 'asNeeded' }) as SimConfigInput;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message is "Invalid TOML document: <reason>" followed by a code excerpt.
    const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    throw new ConfigError(
      [{ path: `${sourceName}:${error.line}:${error.column}`, expected: 'valid TOML', got: reason }],
      `${sourceName}, line ${error.line}`,
    );
  }
}

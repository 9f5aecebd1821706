// Configuration errors. API.md sections 1 and 2: a bad key is never silently ignored; the
// message names the key path and what was expected, and the CLI exits 2. Every problem of one
// input is collected into ONE error so a user fixes a file in one pass, not one key per run.

export interface ConfigProblem {
  /** Key path in the TOML vocabulary: `sim.port`, `instruments[1].tick`, or an env/flag name. */
  readonly path: string;
  /** What the key must hold, in words ("an integer from 0 to 65535", "unknown key", ...). */
  readonly expected: string;
  /** A short rendering of what was found, when there was something to show. */
  readonly got?: string;
}

export function formatProblem(problem: ConfigProblem): string {
  // "expected unknown key" would read badly; the value of an unknown key says nothing useful.
  if (problem.expected.startsWith('unknown key')) return `${problem.path}: ${problem.expected}`;
  const got = problem.got === undefined ? '' : `, got ${problem.got}`;
  return `${problem.path}: expected ${problem.expected}${got}`;
}

/**
 * A configuration with problems (an unknown key, a wrong type, an impossible value): every problem
 * at once, each with its key path (`problems`); the command line exits 2 with it.
 * @example
 * try {
 *   await startSimulator({ config: { sim: { seed: -1 } } });
 * } catch (error) {
 *   if (error instanceof ConfigError) console.log(error.problems.map((p) => p.path));   // ['sim.seed']
 * }
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly ConfigProblem[];
  /** Where the configuration came from (a file path, "environment", ...), when known. */
  readonly source: string | undefined;

  /** @internal Thrown by the configuration's checks. */
  constructor(problems: readonly ConfigProblem[], source?: string) {
    const where = source === undefined ? '' : ` (${source})`;
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    const lines = problems.map((problem) => `  ${formatProblem(problem)}`);
    super([`invalid configuration${where}: ${count}`, ...lines].join('\n'));
    this.problems = Object.freeze(problems.map((problem) => Object.freeze({ ...problem })));
    this.source = source;
  }

  /** @internal The same problems, attributed to a source (used when a file's tree fails validation). */
  withSource(source: string): ConfigError {
    return new ConfigError(this.problems, source);
  }
}

/** A command-line mistake (unknown flag, missing or malformed flag value): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Renders a found value for `ConfigProblem.got`: short, and never a whole table. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') {
    // smol-toml represents TOML dates as TomlDate (a Date subclass); anything else is a table.
    return 'a table';
  }
  return typeof value;
}

// The flags of the command line (API.md section 1): one table gives the parser, the key each
// value flag sets, and the help text. A flag's value is checked by the reader of the key it sets
// (sections.ts), so a flag and the file refuse the same values with the same words.
import { UsageError, formatProblem } from './errors.ts';
import { INVALID, ProblemList, closeMatches, type Reader } from './fields.ts';
import { SIM_SPEC } from './sections.ts';
import type { SimConfigInput } from './types.ts';

export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  /** The value's placeholder in the help; absent for a switch. */
  readonly value?: string;
  /** The `[sim]` key a value flag sets. */
  readonly key?: keyof typeof SIM_SPEC;
  readonly help: string;
}

export const FLAGS: readonly FlagSpec[] = [
  { name: 'config', value: 'FILE', help: 'TOML configuration (default: the embedded default, which\nfixtures/config/default.toml in the package writes out)' },
  { name: 'seed', value: 'N', key: 'seed', help: 'generator seed (sim.seed)' },
  { name: 'port', value: 'N', key: 'port', help: 'plain HTTP/WS port, 0 = any free port (sim.port)' },
  { name: 'tls-port', value: 'N', key: 'tls_port', help: 'TLS port, 0 = any free port (sim.tls_port)' },
  { name: 'bind', value: 'ADDR', key: 'bind', help: 'listen address (sim.bind); 0.0.0.0 = every interface' },
  { name: 'stats-interval-ms', value: 'N', key: 'stats_interval_ms', help: 'stats line period, 0 = off (sim.stats_interval_ms)' },
  { name: 'log-format', value: 'FORMAT', help: 'text (default) or json: one JSON object a line for the\nstart block, the stats and a log of every request' },
  { name: 'quiet', help: 'no stats lines and no request log' },
  { name: 'check-config', help: 'check the configuration and the files it names, then exit\n(0 valid, 2 not)' },
  { name: 'print-config', help: "print the configuration in effect as TOML, each value's\nsource (default, file, env, flag) in a comment, then exit" },
  { name: 'help', short: 'h', help: 'print this help' },
  { name: 'version', short: 'v', help: 'print the version' },
];

function usageLine(flag: FlagSpec): string {
  const names = `${flag.short === undefined ? '' : `-${flag.short}, `}--${flag.name}${flag.value === undefined ? '' : ` ${flag.value}`}`;
  const [first, ...rest] = flag.help.split('\n');
  return [`  ${names.padEnd(24)} ${first}`, ...rest.map((line) => `  ${''.padEnd(24)} ${line}`)].join('\n');
}

export const USAGE = `Usage: spot-sim [options]   (npx spot-sim; in its own repository: npm start -- [options])

Options:
${FLAGS.map(usageLine).join('\n')}

Environment (overrides the file; a flag overrides both):
  SVC_SIM_API_KEY, SVC_SIM_API_SECRET, SVC_SIM_PORT, SVC_SIM_TLS_PORT

Exit codes: 0 success, 2 usage or configuration error, 1 runtime failure (e.g. a port in use).`;

/** The flags given: switches as true, values as typed (the last one wins when repeated). */
export type GivenFlags = ReadonlyMap<string, string | true>;

function flagNamed(arg: string): FlagSpec | undefined {
  if (/^-[^-]$/.test(arg)) return FLAGS.find((flag) => flag.short === arg.slice(1));
  return arg.startsWith('--') ? FLAGS.find((flag) => flag.name === arg.slice(2)) : undefined;
}

/**
 * Reads argv. A value flag takes the next argument whatever it looks like (`--port -1` is the
 * port "-1", refused as a port), or the text after `=`.
 */
export function parseFlags(argv: readonly string[]): GivenFlags {
  const given = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new UsageError(`unexpected argument ${JSON.stringify(arg)}: spot-sim takes options only`);
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const flag = flagNamed(name);
    if (flag === undefined) {
      const close = name.startsWith('--') ? closeMatches(name.slice(2), FLAGS.map((f) => f.name)) : [];
      throw new UsageError(`unknown option ${name}${close.length > 0 ? `; did you mean ${close.map((c) => `--${c}`).join(' or ')}?` : ''}`);
    }
    if (flag.value === undefined) {
      if (eq >= 0) throw new UsageError(`--${flag.name} takes no value`);
      given.set(flag.name, true);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`--${flag.name} needs a value: --${flag.name} ${flag.value}`);
    given.set(flag.name, value);
  }
  return given;
}

/** A flag's text as the TOML value it stands for: numbers as numbers, anything else as text. */
function flagValue(text: string): unknown {
  if (/^[0-9]+$/.test(text)) {
    const value = Number(text);
    // Beyond 2^53 the reader must see the exact value to refuse it as too large.
    return Number.isSafeInteger(value) ? value : BigInt(text);
  }
  return /^-?[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : text;
}

/**
 * The `[sim]` keys the value flags set, as a tree; each value checked by its key's reader.
 * Throws one UsageError naming every bad flag.
 */
export function flagsTree(given: GivenFlags): { readonly tree: SimConfigInput; readonly setBy: ReadonlyMap<string, string> } {
  const problems = new ProblemList();
  const sim: Record<string, unknown> = {};
  const setBy = new Map<string, string>();
  for (const flag of FLAGS) {
    const text = given.get(flag.name);
    if (flag.key === undefined || typeof text !== 'string') continue;
    const before = problems.items.length;
    const read = (SIM_SPEC[flag.key].read as Reader<unknown>)(flagValue(text), `--${flag.name}`, problems);
    if (read === INVALID) {
      // Shown as typed: `--port -1` got "-1".
      problems.items.splice(before, Infinity, ...problems.items.slice(before).map((problem) => ({ ...problem, got: JSON.stringify(text) })));
      continue;
    }
    sim[flag.key] = read;
    setBy.set(`sim.${flag.key}`, `--${flag.name}`);
  }
  if (!problems.isEmpty) throw new UsageError(problems.items.map(formatProblem).join('\n'));
  return { tree: Object.keys(sim).length === 0 ? {} : { sim }, setBy };
}

/** The text of a non-key value flag, or undefined when not given; an empty one is refused. */
export function stringFlag(given: GivenFlags, name: string): string | undefined {
  const value = given.get(name);
  if (value === '') throw new UsageError(`--${name}: expected a non-empty value`);
  return typeof value === 'string' ? value : undefined;
}

export function logFormatFlag(given: GivenFlags): LogFormat {
  const value = stringFlag(given, 'log-format') ?? 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(`--log-format: expected ${LOG_FORMATS.map((f) => JSON.stringify(f)).join(' or ')}, got ${JSON.stringify(value)}`);
  }
  return value as LogFormat;
}

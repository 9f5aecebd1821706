// `[[sim.replay]]` (API.md section 12): a symbol's market replays a recorded day of the
// reference's spot public trades. Each entry's keys are read here with their defaults; the rules
// across keys (a configured instrument, one entry per symbol, not with a kline history, the
// quantity on the lot grid, the kind of file) are checked once the instruments are known. The
// file's rows are read at start (src/replay/), where each is checked by file, line and column.
import { basename } from 'node:path';
import { Decimal } from 'decimal.js';
import { isOnPowerOfTenGrid } from './decimal.ts';
import {
  INVALID,
  readBoolean,
  readInteger,
  readNonEmptyString,
  readNumber,
  readOneOf,
  readPositiveDecimal,
  withSchema,
  type ProblemList,
  type Reader,
} from './fields.ts';
import { optional, readTable, required } from './table.ts';
import type { InstrumentConfig, ReplayConfig } from './types.ts';

export type ReplayFormat = 'aggTrades' | 'trades';

/** Recorded seconds per simulated second: slow motion to a thousandth, fast forward to a million. */
export const MIN_SPEED = 0.001;
export const MAX_SPEED = 1_000_000;
/** Levels a side of the synthetic book. */
export const MAX_DEPTH_LEVELS = 5000;
/** `from` in ms stays below 10^14 (the year 5138), where a time in microseconds starts. */
const MAX_FROM_MS = 99_999_999_999_999;

/** RFC 3339 with a time zone (Z or an offset); the fraction at most milliseconds. */
const RFC3339 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,3}))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))$/;

/** Milliseconds since the epoch of an RFC 3339 date-time with a zone, or undefined (a 30 February too). */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Number((m[7] ?? '').padEnd(3, '0'));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const back = new Date(local);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMin = m[8] !== undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (Number(m[10] ?? 0) > 23 || Number(m[11] ?? 0) > 59) return undefined;
  return local - offsetMin * 60_000;
}

const FROM_EXPECTED = `an RFC 3339 date-time with a time zone ("2025-01-01T08:00:00Z") or whole milliseconds since the epoch below 10^14 (a time in microseconds divided by 1000)`;

/** `from`: a TOML offset date-time, an RFC 3339 string or whole milliseconds. */
const readFrom: Reader<number> = withSchema(
  (value, path, problems) => {
    if (value instanceof Date) {
      // smol-toml's TomlDate: a local date-time or a bare date names no instant.
      const local = 'isLocal' in value && typeof value.isLocal === 'function' && (value.isLocal as () => boolean)();
      const time = value.getTime();
      return !local && Number.isFinite(time) && time >= 0 && time <= MAX_FROM_MS ? time : problems.found(path, FROM_EXPECTED, value);
    }
    if (typeof value === 'string') {
      const ms = parseRfc3339(value);
      return ms !== undefined && ms >= 0 && ms <= MAX_FROM_MS ? ms : problems.found(path, FROM_EXPECTED, value);
    }
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_FROM_MS) return Object.is(value, -0) ? 0 : value;
    return problems.found(path, FROM_EXPECTED, value);
  },
  { anyOf: [{ type: 'integer', minimum: 0, maximum: MAX_FROM_MS }, { type: 'string', format: 'date-time' }] },
);

/** The keys of one `[[sim.replay]]` entry; all but symbol and file have defaults (REPLAY_DEFAULTS). */
export const REPLAY_SPEC = {
  symbol: required(readNonEmptyString),
  file: required(readNonEmptyString),
  format: optional(readOneOf<ReplayFormat>(['aggTrades', 'trades'])),
  speed: optional(readNumber({ expected: `a number from ${MIN_SPEED} to ${MAX_SPEED}`, minimum: MIN_SPEED, maximum: MAX_SPEED })),
  from: optional(readFrom),
  fill_at_touch: optional(readBoolean),
  depth_levels: optional(readInteger({ min: 1, max: MAX_DEPTH_LEVELS })),
  level_qty: optional(readPositiveDecimal),
};

/** What an entry that leaves a key out gets. */
export const REPLAY_DEFAULTS = {
  format: null,
  speed: 1,
  from: null,
  fill_at_touch: false,
  depth_levels: 20,
  level_qty: '1',
} as const satisfies Omit<ReplayConfig, 'symbol' | 'file'>;

/** The entries of `sim.replay`, each with its defaults filled in (incomplete ones left out: their problems are recorded). */
export const readReplayEntries: Reader<ReplayConfig[]> = (value, path, problems) => {
  if (!Array.isArray(value)) return problems.found(path, 'an array of tables ([[sim.replay]])', value);
  const out: ReplayConfig[] = [];
  value.forEach((entry, i) => {
    const before = problems.items.length;
    const read = readTable(withoutNullDefaults(entry), `${path}[${i}]`, REPLAY_SPEC, problems);
    if (read === INVALID || problems.items.length > before) return;
    out.push({
      symbol: read.symbol,
      file: read.file,
      format: read.format ?? REPLAY_DEFAULTS.format,
      speed: read.speed ?? REPLAY_DEFAULTS.speed,
      from: read.from ?? REPLAY_DEFAULTS.from,
      fill_at_touch: read.fill_at_touch ?? REPLAY_DEFAULTS.fill_at_touch,
      depth_levels: read.depth_levels ?? REPLAY_DEFAULTS.depth_levels,
      level_qty: read.level_qty ?? REPLAY_DEFAULTS.level_qty,
    });
  });
  return out;
};

/**
 * A resolved entry says null for `format` and `from` left to their defaults: read as left out, so
 * a loaded configuration can be given again (`simConfig: loadConfig(...)` in a Playwright test).
 */
function withoutNullDefaults(entry: unknown): unknown {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  return Object.fromEntries(Object.entries(entry).filter(([key, value]) => !(value === null && (key === 'format' || key === 'from'))));
}

/** `-aggTrades-` / `-trades-` in the reference's file names (`BTCUSDT-aggTrades-2025-01-01.zip`). */
const NAMED_KIND = /-(aggTrades|trades)(?=[-.])/gi;

/** The kind of file its name says, or undefined when it says neither (or both). */
export function formatOfFileName(file: string): ReplayFormat | undefined {
  const kinds = new Set([...basename(file).matchAll(NAMED_KIND)].map((m) => (m[1]!.toLowerCase() === 'trades' ? 'trades' : 'aggTrades')));
  return kinds.size === 1 ? [...kinds][0] : undefined;
}

/** The kind of an entry's file: its `format`, else its name's. */
export function replayFormatOf(entry: ReplayConfig): ReplayFormat | undefined {
  return entry.format ?? formatOfFileName(entry.file);
}

/**
 * API.md 12: an active instrument's symbol, once; not also a kline history; the level quantity
 * on the symbol's lot grid; a .zip or .csv file whose kind is known.
 */
export function checkReplayEntries(
  replay: readonly ReplayConfig[],
  active: readonly InstrumentConfig[],
  klineSymbols: readonly string[],
  problems: ProblemList,
): void {
  const seen = new Set<string>();
  replay.forEach((entry, i) => {
    const path = `sim.replay[${i}]`;
    const inst = active.find((candidate) => candidate.symbol === entry.symbol);
    if (inst === undefined) problems.note(`${path}.symbol`, 'the symbol of an active instrument', JSON.stringify(entry.symbol));
    else if (seen.has(entry.symbol)) problems.note(`${path}.symbol`, 'one [[sim.replay]] entry per symbol', JSON.stringify(entry.symbol));
    else if (klineSymbols.includes(entry.symbol)) {
      problems.note(`${path}.symbol`, 'a symbol without [[sim.history.klines]] (a replayed symbol takes its history from the file)', JSON.stringify(entry.symbol));
    }
    seen.add(entry.symbol);
    if (!/\.(zip|csv)$/i.test(entry.file)) problems.note(`${path}.file`, 'a .zip or .csv file of the reference\'s spot public data', JSON.stringify(entry.file));
    else if (replayFormatOf(entry) === undefined) {
      problems.note(`${path}.format`, '"aggTrades" or "trades": the file name says neither (-aggTrades- or -trades-)', JSON.stringify(basename(entry.file)));
    }
    if (inst !== undefined) {
      const qty = new Decimal(entry.level_qty);
      const lots = qty.div(inst.lot);
      if (!isOnPowerOfTenGrid(qty, new Decimal(inst.lot)) || lots.gt(Number.MAX_SAFE_INTEGER)) {
        problems.note(`${path}.level_qty`, `a multiple of the lot ${inst.lot} of ${inst.symbol} below 2^53 lots`, JSON.stringify(entry.level_qty));
      }
    }
  });
}

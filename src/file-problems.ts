// The problems of the data files a configuration names (kline history, replayed trades), each
// named by file, line and column (`BTCUSDT-1m-2025-01-01.csv:12:3 (high)`), collected over every
// file and thrown as ONE ConfigError (the command line exits 2) that lists the first 20 and
// counts the rest, so a broken file of a million rows gives a readable message.
import { ConfigError, formatProblem, type ConfigProblem } from './config/index.ts';

/** Problems listed in the message; the rest are counted ("and N more"). */
const MAX_LISTED = 20;

/** Every file's problems: a ConfigError that lists the first 20 and counts the rest. */
export class FileProblemsError extends ConfigError {
  constructor(source: string, listed: readonly ConfigProblem[], total: number) {
    super(listed, source);
    const more = total > listed.length ? [`  and ${total - listed.length} more`] : [];
    this.message = [`invalid configuration (${source}): ${total} problem${total === 1 ? '' : 's'}`, ...listed.map((p) => `  ${formatProblem(p)}`), ...more].join('\n');
  }
}

export class FileProblems {
  readonly listed: ConfigProblem[] = [];
  total = 0;

  add(path: string, expected: string, got?: string): void {
    this.total++;
    if (this.listed.length < MAX_LISTED) this.listed.push(got === undefined ? { path, expected } : { path, expected, got });
  }

  /** Adds every problem of `other` (listed up to the same bound, all counted). */
  addAll(other: FileProblems): void {
    for (const problem of other.listed) if (this.listed.length < MAX_LISTED) this.listed.push(problem);
    this.total += other.total;
  }

  /** Throws them as one FileProblemsError naming `source` (a key path), if there are any. */
  throwIfAny(source: string): void {
    if (this.total > 0) throw new FileProblemsError(source, this.listed, this.total);
  }
}

/** One row's problems, listed by column whichever check found them first. */
export class RowProblems {
  private readonly found: { column: number; name: string; expected: string; got?: string }[] = [];

  /** `where`: `file:line`. */
  constructor(private readonly where: string) {}

  get count(): number {
    return this.found.length;
  }

  add(column: number, name: string, expected: string, got?: string): void {
    this.found.push({ column, name, expected, got });
  }

  /** Hands them to the file's problems, by column. */
  flush(into: FileProblems): void {
    this.found.sort((a, b) => a.column - b.column);
    for (const p of this.found) into.add(`${this.where}:${p.column} (${p.name})`, p.expected, p.got);
  }
}

const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a directory',
};

/** Why reading or checking a file failed, in a few words: a read error's by its code, else the first line of the message, short (OpenSSL's run long); never a stack. */
export function failureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const failure = READ_FAILURES[code];
  if (failure !== undefined) return failure;
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** A cell as a problem shows it: quoted, and cut short. */
export function shownCell(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
}

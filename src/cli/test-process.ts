// Helpers of the command-line tests (not a test file itself): run src/main.ts as a user runs the
// bin, bounded in time, killed by its pid, with no SVC_SIM_* variable of the test's own
// environment leaking in.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Longest a command-line test waits for one process before killing it and failing. */
const DEADLINE_MS = 20_000;

export interface Finished {
  /** The exit code, or null when the process was killed by a signal (the deadline among them). */
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time from spawn to exit. */
  readonly elapsedMs: number;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('SVC_SIM_') && !key.startsWith('NODE_TEST')) env[key] = value;
  }
  return { ...env, ...extra };
}

/** Spawns `spot-sim ARGS` from the sources. */
export function spawnMain(args: readonly string[], extraEnv: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: ROOT, env: cleanEnv(extraEnv) });
}

/** Collects a spawned process's output until it exits, killing it (by pid) at the deadline. */
export function finished(child: ChildProcessWithoutNullStreams, deadlineMs = DEADLINE_MS): Promise<Finished> {
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.once('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, elapsedMs: performance.now() - started });
    });
  });
}

/** Runs `spot-sim ARGS` to its end (commands that exit by themselves). */
export function runMain(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<Finished> {
  return finished(spawnMain(args, extraEnv));
}

/** Resolves with the stdout seen so far once it contains `text` (rejects if the process exits first). */
export function outputContaining(child: ChildProcessWithoutNullStreams, text: string): Promise<string> {
  let seen = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      seen += d.toString();
      if (!seen.includes(text)) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      resolve(seen);
    };
    const onExit = (status: number | null) => reject(new Error(`exited (${status}) before printing ${JSON.stringify(text)}: ${seen}`));
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Starts `spot-sim ARGS`, waits for the end of its start block (the `net backend:` line, or
 * the first line in JSON), runs `during` with what it printed, then sends SIGTERM and collects.
 */
export async function serveMain(
  args: readonly string[],
  extraEnv: Record<string, string> = {},
  during: (startBlock: string, child: ChildProcessWithoutNullStreams) => Promise<void> | void = () => undefined,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<Finished & { readonly startBlock: string }> {
  const child = spawnMain(args, extraEnv);
  const done = finished(child);
  const marker = args.includes('json') ? '\n' : 'net backend:';
  let startBlock = '';
  try {
    startBlock = await outputContaining(child, marker);
    await during(startBlock, child);
  } finally {
    child.kill(signal);
  }
  return { ...(await done), startBlock };
}

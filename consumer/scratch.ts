// Scratch consumer projects for the package test (consumer.test.ts) and the package benchmark:
// `npm pack` this repository once, then install the tarball into fresh projects outside it,
// the way a user's repository would (API.md section 7). Every command has a deadline.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const REPO = join(import.meta.dirname, '..');
const TEMPLATE = join(import.meta.dirname, 'template');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface Packed {
  readonly tarball: string;
  readonly bytes: number;
  readonly files: readonly string[];
}

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs a command to its end (or its deadline: then it is killed and the result says so). */
export function run(command: string, args: readonly string[], cwd: string, options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): RunResult {
  const started = performance.now();
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
    killSignal: 'SIGKILL',
    env: { ...process.env, ...options.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const timedOut = result.error !== undefined ? `\n[${command} ${args.join(' ')}: ${result.error.message}]` : '';
  return { status: result.status, stdout: result.stdout ?? '', stderr: (result.stderr ?? '') + timedOut, ms: performance.now() - started };
}

/** `npm pack` of this repository (its `prepare` builds dist/) into a fresh folder. */
export function pack(into: string): Packed {
  mkdirSync(into, { recursive: true });
  const result = run(NPM, ['pack', '--json', '--pack-destination', into], REPO, { timeoutMs: 180_000 });
  if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stdout}\n${result.stderr}`);
  const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as { filename: string; size: number; files: { path: string }[] }[];
  if (info === undefined) throw new Error(`npm pack printed no result:\n${result.stdout}`);
  return { tarball: join(into, info.filename), bytes: info.size, files: info.files.map((f) => f.path) };
}

/** The version this repository tests with, so the scratch install comes from npm's cache. */
export function repoVersion(name: string): string {
  return (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

export type ProjectKind = 'esm' | 'cjs';

export interface Project {
  readonly dir: string;
  readonly installMs: number;
}

/**
 * A new project outside the repository with the template's files and the tarball installed,
 * next to @playwright/test of the given version (default: the one this repository tests with).
 */
export function createProject(root: string, kind: ProjectKind, tarball: string, options: { name?: string; playwright?: string } = {}): Project {
  const dir = join(root, options.name ?? kind);
  cpSync(TEMPLATE, dir, { recursive: true });
  const pkg = { name: `spot-sim-consumer-${kind}`, version: '1.0.0', private: true, ...(kind === 'esm' ? { type: 'module' } : {}), scripts: { dev: 'node app/server.mjs' } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  // A broken certificate where the working directory's fixtures/tls would be: it must never be used.
  cpSync(join(TEMPLATE, '..', 'broken-tls'), join(dir, 'fixtures', 'tls'), { recursive: true });
  const deps = [tarball, `@playwright/test@${options.playwright ?? repoVersion('@playwright/test')}`, `typescript@${repoVersion('typescript')}`, `@types/node@${repoVersion('@types/node')}`];
  const install = run(NPM, ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', ...deps], dir, { timeoutMs: 180_000 });
  if (install.status !== 0) throw new Error(`npm install in ${dir} failed:\n${install.stdout}\n${install.stderr}`);
  return { dir, installMs: install.ms };
}

export function scratchRoot(): string {
  return mkdtempSync(join(tmpdir(), 'spot-sim-consumer-'));
}

export function removeScratch(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** Starts a long-running command in its own process group; `stop` signals the whole group. */
export function startGroup(command: string, args: readonly string[], cwd: string) {
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    output: () => output,
    exited,
    /** Waits until the output matches, or fails after `timeoutMs` with what was printed. */
    async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(output);
        if (match !== null) return match;
        if (child.exitCode !== null || performance.now() > deadline) throw new Error(`no ${pattern} from ${command} ${args.join(' ')}; output:\n${output}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.max(0, deadline - performance.now()));
          child.stdout.once('data', done).once('close', done);
          function done() {
            clearTimeout(timer);
            child.stdout.off('data', done).off('close', done);
            resolve();
          }
        });
      }
    },
    /** Like Ctrl-C in a terminal: the signal goes to the whole process group (npx and its server). */
    signalGroup(signal: NodeJS.Signals): void {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    },
  };
}

/** True while something accepts connections on the port (loopback). */
export async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/api/v3/ping`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

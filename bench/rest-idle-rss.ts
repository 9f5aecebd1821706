// The idle-RSS part of the REST benchmark: the standalone server as `npm start` runs it (the
// esbuild bundle under plain node, SERVER_NODE_FLAGS and SERVER_ENV) idle after its startup
// lines, VmRSS from /proc/<pid>/status, with every process it keeps alive, against an empty node
// process started the same way; and the same server from source under tsx, for comparison.

import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { IDLE_SECONDS, ROOT } from './rest-settings.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './support.ts';

interface RssFigure {
  /** The node process itself. */
  readonly rssBytes: number;
  readonly hwmBytes: number;
  /** The node process plus every process it keeps alive (what the user pays for). */
  readonly treeRssBytes: number;
  readonly children: { pid: number; cmd: string; rss: number }[];
  readonly command: string;
  /** An empty process started the same way (same loader or none), for comparison. */
  readonly baselineRssBytes: number;
  readonly baselineCommand: string;
}

export interface RssResult {
  readonly idleSeconds: number;
  /** What `npm start` runs (dist/main.mjs, the esbuild bundle, under plain node); the target applies here. */
  readonly server: RssFigure;
  /** The same server from source under tsx's loader (`npx tsx src/main.ts`), for comparison. */
  readonly tsx: RssFigure;
}

function procStatus(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    if (m === null) throw new Error(`/proc/${pid}/status has no ${key}`);
    return Number(m[1]) * 1024;
  };
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Every descendant of `pid` (from /proc/<pid>/task/<tid>/children), with its command and VmRSS. */
function descendants(pid: number): { pid: number; cmd: string; rss: number }[] {
  const out: { pid: number; cmd: string; rss: number }[] = [];
  const walk = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let kids: string[] = [];
      try {
        kids = readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      } catch {
        continue;
      }
      for (const kid of kids.map(Number)) {
        try {
          const cmd = readFileSync(`/proc/${kid}/cmdline`, 'utf8').split('\0').join(' ').trim();
          out.push({ pid: kid, cmd, rss: procStatus(kid).rss });
        } catch {
          continue; // it exited meanwhile
        }
        walk(kid);
      }
    }
  };
  walk(pid);
  return out;
}

interface IdleFigure {
  readonly rss: number;
  readonly hwm: number;
  /** Processes the measured one keeps running (e.g. a build tool's service process). */
  readonly children: { pid: number; cmd: string; rss: number }[];
}

/** Spawns `args` under node, waits for `readyLine` on stdout, idles, reads /proc, SIGTERMs it. */
async function idleRss(args: string[], readyLine: string): Promise<IdleFigure> {
  // Node flags and environment as `npm start` gives the server (SERVER_NODE_FLAGS), for the
  // server and its empty-process baseline alike.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...SERVER_ENV } });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  try {
    await new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no "${readyLine}" within 30 s; stdout: ${out} stderr: ${err}`)), 30_000);
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes(readyLine)) {
          clearTimeout(timer);
          res();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        rej(new Error(`exited (${code}) before "${readyLine}"; stderr: ${err}`));
      });
    });
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    return { ...procStatus(child.pid!), children: descendants(child.pid!) };
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  }
}

const SERVER_FLAGS = ['--port', '0', '--tls-port', '0', '--bind', '127.0.0.1', '--quiet'];
const IDLE_SCRIPT = "console.log('idle ready'); setInterval(() => {}, 1 << 30)";
const READY_LINE = 'net backend:';

async function rssFigure(args: string[], baselineArgs: string[]): Promise<RssFigure> {
  const server = await idleRss(args, READY_LINE);
  const empty = await idleRss(baselineArgs, 'idle ready');
  return {
    rssBytes: server.rss,
    hwmBytes: server.hwm,
    treeRssBytes: server.rss + server.children.reduce((a, c) => a + c.rss, 0),
    children: server.children,
    command: `node ${[...SERVER_NODE_FLAGS, ...args].join(' ')}`,
    baselineRssBytes: empty.rss,
    baselineCommand: `node ${baselineArgs.map((a) => (a === IDLE_SCRIPT ? "'<idle script>'" : a)).join(' ')}`,
  };
}

/** The idle RSS of the server as `npm start` runs it (built first) and from source under tsx, each beside an empty process. */
export async function benchRss(): Promise<RssResult> {
  // `npm start` = node scripts/build-main.mjs (bundles src/main.ts into dist/), then node dist/main.mjs.
  const build = spawnSync(process.execPath, ['scripts/build-main.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('scripts/build-main.mjs failed');
  const server = await rssFigure(['dist/main.mjs', ...SERVER_FLAGS], ['-e', IDLE_SCRIPT]);
  const tsx = await rssFigure(['--import', 'tsx', 'src/main.ts', ...SERVER_FLAGS], ['--import', 'tsx', '-e', IDLE_SCRIPT]);
  return { idleSeconds: IDLE_SECONDS, server, tsx };
}

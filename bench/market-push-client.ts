// The load side of bench/market-push.bench.ts, forked by it (never run on its own): many
// WebSocket subscribers on loopback, in a process of their own so that reading the pushes is
// not counted as the server's time. Driven over the IPC channel (serveJobs, load-common.ts):
//   { open: { target, url, count } }   opens `count` connections to `url` (50 handshakes in
//                                      flight at a time); answers { opened: target }
//   { reach: { target, messages } }    answers { reached: target, bytes } once every connection
//                                      of `target` has received `messages` messages in all
//                                      (`bytes`: what each received, summed over connections);
//                                      fails when one received more, or one closed
//   { stop: true }                     closes everything and exits

import type WebSocket from 'ws';
import { openWs, serveJobs, type LoadJob } from './load-common.ts';

export type PushClientJob = LoadJob &
  ({ readonly open: { readonly target: string; readonly url: string; readonly count: number } } | { readonly reach: { readonly target: string; readonly messages: number } });

export interface PushClientReport {
  readonly opened?: string;
  readonly reached?: string;
  readonly bytes?: number;
}

const OPENING_AT_ONCE = 50;

class Subscribers {
  readonly sockets: WebSocket[] = [];
  readonly counts: number[] = [];
  bytes = 0;
  closed = 0;
  /** The count every connection must reach, and how many have reached it. */
  private goal = Infinity;
  private atGoal = 0;
  private onGoal: (() => void) | null = null;

  constructor(readonly target: string) {}

  add(ws: WebSocket): void {
    const i = this.sockets.length;
    this.sockets.push(ws);
    this.counts.push(0);
    ws.on('message', (data: Buffer) => {
      this.bytes += data.length;
      const n = this.counts[i]! + 1;
      this.counts[i] = n;
      if (n === this.goal && ++this.atGoal === this.sockets.length) this.done();
    });
    ws.once('close', () => this.closed++);
  }

  /** Resolves once every connection has `messages` messages in all. */
  reach(messages: number): Promise<void> {
    if (this.counts.some((n) => n > messages)) return Promise.reject(new Error(`${this.target}: a connection received more than ${messages} messages`));
    this.goal = messages;
    this.atGoal = this.counts.filter((n) => n === messages).length;
    return new Promise((res) => {
      this.onGoal = res;
      if (this.atGoal === this.sockets.length) this.done();
    });
  }

  private done(): void {
    const onGoal = this.onGoal;
    this.onGoal = null;
    this.goal = Infinity;
    onGoal?.();
  }
}

const targets = new Map<string, Subscribers>();

async function open(target: string, url: string, count: number): Promise<void> {
  const subs = new Subscribers(target);
  targets.set(target, subs);
  for (let i = 0; i < count; i += OPENING_AT_ONCE) {
    const batch = await Promise.all(Array.from({ length: Math.min(OPENING_AT_ONCE, count - i) }, () => openWs(url)));
    for (const ws of batch) subs.add(ws);
  }
}

async function handle(job: PushClientJob): Promise<PushClientReport> {
  if ('open' in job) {
    await open(job.open.target, job.open.url, job.open.count);
    return { opened: job.open.target };
  }
  const subs = targets.get(job.reach.target);
  if (subs === undefined) throw new Error(`no connections to ${job.reach.target}`);
  if (subs.closed > 0) throw new Error(`${job.reach.target}: ${subs.closed} connections closed`);
  await subs.reach(job.reach.messages);
  return { reached: job.reach.target, bytes: subs.bytes };
}

serveJobs<PushClientJob>('bench/market-push-client.ts', 'npm run bench:market-push', handle, () => {
  for (const subs of targets.values()) for (const ws of subs.sockets) ws.terminate();
});

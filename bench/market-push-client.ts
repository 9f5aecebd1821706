// The load side of bench/market-push.bench.ts, forked by it (never run on its own): many
// WebSocket subscribers on loopback, in a process of their own so that reading the pushes is
// not counted as the server's time. Driven over the IPC channel:
//   { open: { target, url, count } }   opens `count` connections to `url` (50 handshakes in
//                                      flight at a time); answers { opened: target }
//   { reach: { target, messages } }    answers { reached: target, bytes } once every connection
//                                      of `target` has received `messages` messages in all
//                                      (`bytes`: what each received, summed over connections);
//                                      { error } when one received more, or one closed
//   { stop: true }                     closes everything and exits

import type WebSocket from 'ws';
import { errText, openWs } from './load-common.ts';

export type PushClientJob =
  | { readonly open: { readonly target: string; readonly url: string; readonly count: number } }
  | { readonly reach: { readonly target: string; readonly messages: number } }
  | { readonly stop: true };

export interface PushClientReport {
  readonly ready?: true;
  readonly opened?: string;
  readonly reached?: string;
  readonly bytes?: number;
  readonly error?: string;
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
const report = (m: PushClientReport) => process.send!(m);

async function open(target: string, url: string, count: number): Promise<void> {
  const subs = new Subscribers(target);
  targets.set(target, subs);
  for (let i = 0; i < count; i += OPENING_AT_ONCE) {
    const batch = await Promise.all(Array.from({ length: Math.min(OPENING_AT_ONCE, count - i) }, () => openWs(url)));
    for (const ws of batch) subs.add(ws);
  }
}

async function handle(job: PushClientJob): Promise<void> {
  if ('stop' in job) {
    for (const subs of targets.values()) for (const ws of subs.sockets) ws.terminate();
    process.exit(0);
  }
  if ('open' in job) {
    await open(job.open.target, job.open.url, job.open.count);
    report({ opened: job.open.target });
    return;
  }
  const subs = targets.get(job.reach.target);
  if (subs === undefined) throw new Error(`no connections to ${job.reach.target}`);
  if (subs.closed > 0) throw new Error(`${job.reach.target}: ${subs.closed} connections closed`);
  await subs.reach(job.reach.messages);
  report({ reached: job.reach.target, bytes: subs.bytes });
}

if (process.send === undefined) {
  console.error('bench/market-push-client.ts is forked by bench/market-push.bench.ts');
  process.exit(2);
}
process.on('message', (job: PushClientJob) => {
  handle(job).catch((e: unknown) => report({ error: errText(e) }));
});
report({ ready: true });

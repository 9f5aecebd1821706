// Example: tests spread over parallel workers, each worker with its own exchange. The tests of
// this file may run in any worker (mode 'parallel'); each one
//   - resets its worker's exchange and checks that its order ids start at 1 and that the open
//     orders are its own only (nothing from any other test or worker);
//   - records its worker's ports and orders in a directory shared by the workers of this run;
//   - compares itself with every other worker running at the same time: different ports, and
//     that worker's exchange (asked over its control API) does not hold this test's orders.
// With 2+ workers (CI: playwright.config.ts sets 2) the first test of a worker waits a while for
// another worker to show up, so the comparison happens even when the other worker was busy
// with another file; what was compared is attached to the test as annotations.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from 'spot-sim/fixture';

test.describe.configure({ mode: 'parallel' });

interface WorkerRecord {
  readonly workerIndex: number;
  readonly pid: number;
  readonly http: string;
  readonly ports: { readonly http: number; readonly https: number };
  readonly orderIds: number[];
  readonly clientOrderIds: string[];
}

const PEER_WAIT_MS = 10_000;

/** Shared by the workers of one run: they are all children of the runner process. */
function runDir(outputDir: string): string {
  const dir = join(outputDir, `parallel-workers-${process.ppid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The latest record of every other worker still running. */
function livePeers(dir: string, self: number): WorkerRecord[] {
  if (!existsSync(dir)) return [];
  const peers: WorkerRecord[] = [];
  for (const name of readdirSync(dir)) {
    const lines = readFileSync(join(dir, name), 'utf8').trim().split('\n').filter(Boolean);
    if (lines.length === 0) continue;
    const record = JSON.parse(lines.at(-1)!) as WorkerRecord;
    if (record.workerIndex !== self && record.pid !== process.pid && isAlive(record.pid)) peers.push(record);
  }
  return peers;
}

/** Resolves once another live worker has a record (watching the directory), or after `ms`. */
async function waitForPeer(dir: string, self: number, ms: number): Promise<void> {
  if (livePeers(dir, self).length > 0) return;
  await new Promise<void>((resolve) => {
    const watcher = watch(dir, () => {
      if (livePeers(dir, self).length > 0) finish();
    });
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
  });
}

let testsInThisWorker = 0;

// Files without their own `simConfig` may share this worker (and its exchange) after this one:
// leave it as it started.
test.afterEach(({ sim }) => sim.reset());

for (const n of [1, 2, 3, 4]) {
  test(`test ${n}: this worker's exchange is its own`, async ({ sim, client }, testInfo) => {
    testsInThisWorker++;
    sim.reset();

    // Independent id sequence: a fresh exchange numbers this test's orders from 1.
    const clientOrderIds = [`w${testInfo.workerIndex}-t${n}-a`, `w${testInfo.workerIndex}-t${n}-b`];
    const orderIds: number[] = [];
    for (const [i, id] of clientOrderIds.entries()) {
      const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: String(50_000 + i), newClientOrderId: id });
      orderIds.push(order.orderId);
    }
    expect(orderIds).toEqual([1, 2]);
    expect(sim.openClientOrderIds()).toEqual(clientOrderIds);

    const dir = runDir(testInfo.project.outputDir);
    const record: WorkerRecord = { workerIndex: testInfo.workerIndex, pid: process.pid, http: sim.urls.http, ports: sim.ports, orderIds, clientOrderIds };
    appendFileSync(join(dir, `worker-${testInfo.workerIndex}.jsonl`), `${JSON.stringify(record)}\n`);
    testInfo.annotations.push({ type: 'worker', description: `index ${testInfo.workerIndex}, pid ${process.pid}, ports ${sim.ports.http}/${sim.ports.https}` });

    if (testInfo.config.workers >= 2 && testsInThisWorker === 1) await waitForPeer(dir, testInfo.workerIndex, PEER_WAIT_MS);

    const compared: string[] = [];
    for (const peer of livePeers(dir, testInfo.workerIndex)) {
      // Ask the other worker's exchange for its open orders; a worker that has just stopped
      // its simulator does not answer and is left out.
      const answer = await fetch(`${peer.http}/sim/v1/open-client-order-ids`).catch(() => null);
      if (answer === null || answer.status !== 200) continue;
      const theirs = ((await answer.json()) as { result: string[] }).result;
      expect([peer.ports.http, peer.ports.https], `worker ${peer.workerIndex}'s ports`).not.toContain(sim.ports.http);
      expect([peer.ports.http, peer.ports.https], `worker ${peer.workerIndex}'s ports`).not.toContain(sim.ports.https);
      for (const id of clientOrderIds) expect(theirs, `worker ${peer.workerIndex}'s open orders`).not.toContain(id);
      compared.push(`worker ${peer.workerIndex} (ports ${peer.ports.http}/${peer.ports.https}, open orders ${JSON.stringify(theirs)})`);
    }
    // Still only this test's orders here, whatever the other workers did meanwhile.
    expect(sim.openClientOrderIds()).toEqual(clientOrderIds);
    testInfo.annotations.push({ type: 'compared with', description: compared.length > 0 ? compared.join('; ') : 'no other worker was running' });
  });
}

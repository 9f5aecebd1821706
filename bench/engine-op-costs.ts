// Where the engine bench's time goes, by kind of op: the stream of bench/engine.bench.ts replayed
// through `Exchange.submit`, each timed op between two clock reads, summed per kind (a passive
// limit that rests, a limit that trades, a cancel, a market order). It prints ns per op and each
// kind's share of the time.
//
// Reading the clock around every op keeps the processor from overlapping one op's cache misses
// with the next one's work, so the sum is larger than the untimed run (its time per op is printed
// beside it); the shares and the differences between kinds are what this shows.
//
//   npx tsx bench/engine-op-costs.ts [--only=shallow|deep] [--runs=3] [--scale=1]

import { performance } from 'node:perf_hooks';
import { BUY, CANCEL, generate, LIMIT, newExchange, scenarios, T0, type OpStream } from './engine-stream.ts';
import { flag } from './support.ts';

const RUNS = Number(flag('runs') ?? 3);
const ONLY = flag('only') ?? 'deep';
const KINDS = ['passive limit', 'crossing limit', 'cancel', 'market'] as const;

interface Costs {
  readonly ns: number[];
  readonly count: number[];
  readonly untimedNsPerOp: number;
}

function replay(st: OpStream, timed: boolean): Costs {
  const { ex, sym } = newExchange();
  const { kind, side, price, qty, target } = st;
  const keys = new Float64Array(st.length); // book keys pass 2^31 (engine-stream.ts)
  const ns = [0, 0, 0, 0];
  const count = [0, 0, 0, 0];
  let started = 0;
  for (let i = 0; i < st.length; i++) {
    if (i === st.prefill) started = performance.now();
    const now = T0 + i;
    const measure = timed && i >= st.prefill;
    const t0 = measure ? performance.now() : 0;
    const k = kind[i];
    let which: number;
    if (k === LIMIT) {
      const placed = ex.submit({ type: 'counterpartyLimit', now, symbolIndex: sym, side: side[i] === BUY ? 'BUY' : 'SELL', price: price[i]!, lots: qty[i]! });
      if (placed.ok) keys[i] = placed.value;
      which = placed.events.some((e) => e.type === 'trade') ? 1 : 0;
    } else if (k === CANCEL) {
      ex.submit({ type: 'counterpartyCancel', now, key: keys[target[i]!]! });
      which = 2;
    } else {
      ex.submit({ type: 'counterpartyTake', now, symbolIndex: sym, side: side[i] === BUY ? 'BUY' : 'SELL', price: null, lots: qty[i]! });
      which = 3;
    }
    if (measure) {
      ns[which]! += (performance.now() - t0) * 1e6;
      count[which]!++;
    }
  }
  return { ns, count, untimedNsPerOp: ((performance.now() - started) * 1e6) / (st.length - st.prefill) };
}

for (const sc of scenarios(Number(flag('scale') ?? 1))) {
  if (sc.name !== ONLY) continue;
  const st = generate(sc);
  console.log(`${sc.label}: ${st.length - st.prefill} timed ops after ${st.prefill} pre-filled, ${RUNS} runs (each in a fresh Exchange)`);
  for (let run = 0; run < RUNS; run++) {
    const untimed = replay(st, false);
    const costs = replay(st, true);
    const total = costs.ns.reduce((a, b) => a + b, 0);
    const parts = KINDS.map((name, j) => `${name} ${costs.count[j]} x ${(costs.ns[j]! / Math.max(1, costs.count[j]!)).toFixed(0)} ns = ${((100 * costs.ns[j]!) / total).toFixed(1)} %`);
    console.log(`  run ${run + 1}: untimed ${untimed.untimedNsPerOp.toFixed(0)} ns/op, timed ${(total / (st.length - st.prefill)).toFixed(0)} ns/op | ${parts.join(' | ')}`);
  }
}

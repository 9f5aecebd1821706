// The figures `npm run bench:ab` compares (bench/ab/runner.ts), each read from a bench's
// results file (bench/results/<bench>.json) under a name that stays the same across commits:
// an A/B table needs the same name on both sides even when a results file gains fields.
// `better` says which way is an improvement, so the table can say "better"/"worse".

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Figure {
  readonly name: string;
  readonly unit: string;
  readonly better: 'higher' | 'lower';
  readonly read: (results: Json) => number | undefined;
}

/** The benches bench:ab can run: which bench file, which of its parts, and its figures. */
export interface AbBench {
  readonly name: string;
  /** bench/<file>.bench.ts */
  readonly file: string;
  readonly args: readonly string[];
  /** The engine bench runs its core on node's defaults; the others run a server as `npm start` does. */
  readonly serverFlags: boolean;
  readonly figures: readonly Figure[];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const ratio = (a: unknown, b: unknown): number | undefined => {
  const x = num(a);
  const y = num(b);
  return x !== undefined && y !== undefined && y !== 0 ? x / y : undefined;
};
const scenario = (r: Json, name: string): Json | undefined => (r.scenarios as Json[] | undefined)?.find((s) => s.name === name);

const engineFigures: Figure[] = ['shallow', 'deep'].flatMap((sc): Figure[] => [
  { name: `engine ${sc} spot-sim ops/s`, unit: 'ops/s', better: 'higher', read: (r) => num(scenario(r, sc)?.spotSim?.medianOpsPerSec) },
  { name: `engine ${sc} spot-sim ops per CPU-second`, unit: 'ops/s', better: 'higher', read: (r) => num(scenario(r, sc)?.spotSim?.medianOpsPerCpuSec) },
  { name: `engine ${sc} nodejs-order-book ops/s`, unit: 'ops/s', better: 'higher', read: (r) => num(scenario(r, sc)?.nodejsOrderBook?.medianOpsPerSec) },
  {
    name: `engine ${sc} spot-sim / nodejs-order-book`,
    unit: 'x',
    better: 'higher',
    read: (r) => ratio(scenario(r, sc)?.spotSim?.medianOpsPerSec, scenario(r, sc)?.nodejsOrderBook?.medianOpsPerSec),
  },
]);
engineFigures.push({ name: 'engine heap per resting order', unit: 'B', better: 'lower', read: (r) => num(r.heapBytesPerRestingOrder?.spotSim) });
// Issue 33: the shallow stream with 100k waiting stops (a base without stops replays it alone), and with 100k it triggers.
for (const sc of ['stops', 'stops-trigger']) {
  engineFigures.push(
    { name: `engine ${sc} spot-sim ops/s`, unit: 'ops/s', better: 'higher', read: (r) => num(scenario(r, sc)?.spotSim?.medianOpsPerSec) },
    { name: `engine ${sc} spot-sim ops per CPU-second`, unit: 'ops/s', better: 'higher', read: (r) => num(scenario(r, sc)?.spotSim?.medianOpsPerCpuSec) },
  );
}

const w1Figures: Figure[] = [
  ...(['hmac', 'logon'] as const).flatMap((mode): Figure[] => [
    { name: `W1 ${mode} order.place p50`, unit: 'µs', better: 'lower', read: (r) => num(r.w1?.[mode]?.place?.p50) },
    { name: `W1 ${mode} order.place p99`, unit: 'µs', better: 'lower', read: (r) => num(r.w1?.[mode]?.place?.p99) },
    { name: `W1 ${mode} p50 / bare ws echo p50`, unit: 'x', better: 'lower', read: (r) => ratio(r.w1?.[mode]?.place?.p50, r.w1?.echo?.place?.p50) },
  ]),
  { name: 'W1 bare ws echo p50', unit: 'µs', better: 'lower', read: (r) => num(r.w1?.echo?.place?.p50) },
];

const w2Figures: Figure[] = [
  ...(['hmac', 'logon'] as const).flatMap((mode): Figure[] => [
    { name: `W2 ${mode} place+cancel pairs/s`, unit: 'pairs/s', better: 'higher', read: (r) => num(r.w2?.[mode]?.ordersPerSec) },
    { name: `W2 ${mode} pairs per server core`, unit: 'pairs/s', better: 'higher', read: (r) => num(r.w2?.[mode]?.ordersPerServerCore) },
  ]),
  { name: 'W2 bare ws echo frames/s', unit: 'frames/s', better: 'higher', read: (r) => num(r.w2?.echo?.requestsPerSec) },
];

const m1Figures: Figure[] = [
  { name: 'M1 server time per depth batch p99', unit: 'ms', better: 'lower', read: (r) => num(r.m1?.sim?.batch?.p99) },
  { name: 'M1 delivery delay p99', unit: 'ms', better: 'lower', read: (r) => num(r.m1?.sim?.delay?.p99) },
];

const pushFigures: Figure[] = [
  { name: 'push: server CPU per 2 s cycle, 1000 kline + ticker subscribers', unit: 'µs', better: 'lower', read: (r) => num(r.cpuUs?.sim?.perCycleUs) },
  { name: 'push: the same / bare ws broadcaster', unit: 'x', better: 'lower', read: (r) => num(r.ratio) },
  { name: 'push: ticker alone p50 / bare ws', unit: 'x', better: 'lower', read: (r) => num(r.tickerAloneRatio) },
  { name: 'push: bare ws broadcaster per 2 s cycle', unit: 'µs', better: 'lower', read: (r) => num(r.cpuUs?.bare?.perCycleUs) },
];

const restFigures: Figure[] = [
  { name: 'REST bare node:http req/s', unit: 'req/s', better: 'higher', read: (r) => num(r.bare?.reqPerSec) },
  { name: 'REST signed POST+DELETE order req/s', unit: 'req/s', better: 'higher', read: (r) => num(r.order?.client?.reqPerSec) },
  { name: 'REST signed order p50', unit: 'µs', better: 'lower', read: (r) => num(r.order?.client?.place?.p50Us) },
  { name: 'REST GET depth limit=100 req/s', unit: 'req/s', better: 'higher', read: (r) => num(r.depth?.client?.reqPerSec) },
  { name: 'REST startSimulator p50', unit: 'ms', better: 'lower', read: (r) => num(r.startup?.p50Ms) },
  { name: 'REST idle RSS (npm start)', unit: 'MiB', better: 'lower', read: (r) => num(r.idleRss?.treeRssMiB) },
];

const resetFigures: Figure[] = [
  ...(['idle', 'test', 'busy'] as const).map((k): Figure => ({ name: `reset p50 (${k})`, unit: 'ms', better: 'lower', read: (r) => num(r[k]?.p50Ms) })),
  { name: "reset suite wall time, isolation 'test'", unit: 'ms', better: 'lower', read: (r) => num(r.suite?.testWallMs) },
];

const routingFigures: Figure[] = (['direct', 'mapped', 'routed'] as const).flatMap((mode): Figure[] => [
  { name: `routing ${mode} REST p50`, unit: 'ms', better: 'lower', read: (r) => num(r[mode]?.restP50Ms) },
  { name: `routing ${mode} WS API p50`, unit: 'ms', better: 'lower', read: (r) => num(r[mode]?.wsApiP50Ms) },
  { name: `routing ${mode} burst`, unit: 'ms', better: 'lower', read: (r) => num(r[mode]?.burstMs) },
]);

export const AB_BENCHES: readonly AbBench[] = [
  { name: 'engine', file: 'engine', args: [], serverFlags: false, figures: engineFigures },
  { name: 'ws', file: 'ws', args: [], serverFlags: true, figures: [...w1Figures, ...w2Figures, ...m1Figures] },
  { name: 'w1', file: 'ws', args: ['--only=w1'], serverFlags: true, figures: w1Figures },
  { name: 'w2', file: 'ws', args: ['--only=w2'], serverFlags: true, figures: w2Figures },
  { name: 'm1', file: 'ws', args: ['--only=m1'], serverFlags: true, figures: m1Figures },
  { name: 'push', file: 'market-push', args: [], serverFlags: true, figures: pushFigures },
  { name: 'rest', file: 'rest', args: [], serverFlags: true, figures: restFigures },
  { name: 'reset', file: 'reset', args: [], serverFlags: true, figures: resetFigures },
  { name: 'routing', file: 'routing', args: [], serverFlags: true, figures: routingFigures },
];

// Writes bench/REPORT.md from the results the benchmarks left in bench/results/*.json (issue:
// performance report): one table of metric, figure, same-run baseline, ratio, target and whether
// it was met, plus the conditions of each run (load average, cores), because on a small shared
// machine the conditions decide the figures. `npm run bench` runs every benchmark, then this.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReportSection } from './report-sections.ts';

const dir = dirname(fileURLToPath(import.meta.url));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function load(name: string): Json | null {
  const file = join(dir, 'results', `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Json) : null;
}

interface Row {
  readonly metric: string;
  readonly figure: number | undefined;
  readonly unit: string;
  readonly baseline?: number;
  readonly ratio?: number;
  readonly target?: string;
  readonly met?: boolean;
}

const fmt = (v: number | undefined, digits = 0) =>
  v === undefined || !Number.isFinite(v) ? '—' : v >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toFixed(digits);

function engineRows(e: Json | null): Row[] {
  if (e === null) return [];
  const rows: Row[] = [];
  for (const sc of e.scenarios ?? []) {
    const ours = sc.spotSim?.medianOpsPerSec;
    const base = sc.nodejsOrderBook?.medianOpsPerSec;
    const ratio = sc.ratio ?? (ours && base ? ours / base : undefined);
    const want = sc.name === 'deep' ? 20 : 5;
    rows.push({ metric: `engine ${sc.name} book ops/s (vs nodejs-order-book)`, figure: ours, unit: 'ops/s', baseline: base, ratio, target: `>= ${want}x`, met: ratio !== undefined ? ratio >= want : undefined });
  }
  const heap = e.heapBytesPerRestingOrder;
  if (heap) rows.push({ metric: 'engine heap per resting order', figure: heap.spotSim, unit: 'B', baseline: heap.nodejsOrderBook, ratio: heap.spotSim / heap.nodejsOrderBook });
  return rows;
}

function restRows(r: Json | null): Row[] {
  if (r === null) return [];
  const bare = r.bare?.reqPerSec;
  const order = r.order?.client;
  return [
    { metric: 'REST bare node:http hello (10 conns)', figure: bare, unit: 'req/s' },
    { metric: 'REST signed POST+DELETE order', figure: order?.reqPerSec, unit: 'req/s', baseline: bare, ratio: r.order?.ratioToBare, target: '>= 0.5x bare', met: r.targets?.signedOrder?.met },
    { metric: 'REST signed order p50 / p99', figure: order?.place?.p50Us, unit: `µs (p99 ${fmt(order?.place?.p99Us)})` },
    { metric: 'REST GET depth limit=100', figure: r.depth?.client?.reqPerSec, unit: 'req/s', baseline: bare, ratio: r.depth?.ratioToBare, target: '>= 0.7x bare', met: r.targets?.depth?.met },
    { metric: 'startSimulator to both listeners, p50 of 50', figure: r.startup?.p50Ms, unit: 'ms', target: '<= 5 ms', met: r.startup?.p50Ms <= 5 },
    {
      metric: 'idle RSS, standalone (`npm start`: node dist/main.mjs)',
      figure: r.idleRss?.treeRssMiB,
      unit: 'MiB',
      baseline: r.idleRss?.server?.baselineRssBytes / 2 ** 20,
      target: '<= 70 MiB',
      met: r.targets?.idleRss?.met,
    },
    { metric: 'idle RSS, `npx tsx src/main.ts` (loader isolate)', figure: r.idleRss?.tsxRssMiB, unit: 'MiB', baseline: r.idleRss?.tsx?.baselineRssBytes / 2 ** 20 },
  ];
}

function wsRows(w: Json | null): Row[] {
  if (w === null) return [];
  const t = w.targets ?? {};
  const echo = w.w1?.echo?.place;
  const rtt = (mode: 'hmac' | 'logon', p: 'p50' | 'p99', key: string): Row => ({
    metric: `WS API order.place RTT ${p} (${mode === 'hmac' ? 'HMAC' : 'after Ed25519 logon'})`,
    figure: w.w1?.[mode]?.place?.[p],
    unit: 'µs',
    baseline: echo?.[p],
    ratio: w.w1?.[mode]?.place?.[p] / echo?.[p],
    target: t[key]?.target,
    met: t[key]?.met,
  });
  // W2's target is read as order requests (place or cancel) per second; the pairs row is the
  // stricter reading (a place and its cancel as one order).
  const w2 = (mode: 'hmac' | 'logon'): Row[] => {
    const r = w.w2?.[mode];
    const label = mode === 'hmac' ? 'HMAC' : 'after logon';
    const requests = t[`w2.${mode}.requestsPerSec`];
    const pairs = t[`w2.${mode}.pairsPerSec`];
    return [
      {
        metric: `WS API pipelined order requests/s, place + cancel (${label}, user data on)`,
        figure: r?.requestsPerSec,
        unit: 'requests/s (vs bare ws echo frames/s)',
        baseline: w.w2?.echo?.requestsPerSec,
        ratio: r?.requestsPerSec / w.w2?.echo?.requestsPerSec,
        target: requests?.target,
        met: requests?.met,
      },
      {
        metric: `same, counted as place+cancel pairs/s (${label})`,
        figure: r?.ordersPerSec,
        unit: `pairs/s (${fmt(r?.ordersPerServerCore)} per server core)`,
        baseline: w.w2?.echo?.ordersPerSec,
        ratio: r?.ordersPerSec / w.w2?.echo?.ordersPerSec,
        target: pairs?.target,
        met: pairs?.met,
      },
    ];
  };
  return [
    rtt('hmac', 'p50', 'w1.hmac.p50'),
    rtt('hmac', 'p99', 'w1.hmac.p99'),
    rtt('logon', 'p50', 'w1.logon.p50'),
    rtt('logon', 'p99', 'w1.logon.p99'),
    ...w2('hmac'),
    ...w2('logon'),
    {
      metric: 'fan-out to 1000 depth subscribers, server time per batch p99',
      figure: w.m1?.sim?.batch?.p99,
      unit: `ms (p50 ${fmt(w.m1?.sim?.batch?.p50, 1)})`,
      baseline: w.m1?.bare?.batch?.p99,
      ratio: w.m1?.sim?.batch?.p99 / w.m1?.bare?.batch?.p99,
      target: '<= 10 ms',
      met: t['m1.batchP99Ms']?.met,
    },
    { metric: 'fan-out delivery delay p99', figure: w.m1?.sim?.delay?.p99, unit: 'ms', baseline: w.m1?.bare?.delay?.p99, ratio: w.m1?.sim?.delay?.p99 / w.m1?.bare?.delay?.p99 },
  ];
}

function pushRows(p: Json | null): Row[] {
  if (p === null) return [];
  return [
    {
      metric: `${p.subscribers ?? 1000} subscribers of kline_1m + ticker: server CPU per 2 s push cycle`,
      figure: p.cpuUs?.sim?.perCycleUs,
      unit: `µs (ticker alone p50 ${fmt(p.tickerAloneRatio, 2)}x bare)`,
      baseline: p.cpuUs?.bare?.perCycleUs,
      ratio: p.ratio,
      target: '<= 1.1x bare',
      met: p.target?.met,
    },
  ];
}

function soakRows(s: Json | null): Row[] {
  if (s === null) return [];
  const maxRss = s.p4?.rssMB?.max;
  return [
    { metric: '1000 WS connections (depth + trades) delivery p99', figure: s.p1?.window?.all?.p99, unit: `ms (${s.p1?.md?.closed ?? '?'} closed, ${s.p1?.md?.gaps ?? '?'} gaps)` },
    // When the two windows without the slow consumer differ by more than the 5 ms allowed, the
    // machine's noise decides the figure: no verdict (the soak says "noisy" too).
    {
      metric: 'slow consumer: others\' p99 change',
      figure: s.p2?.p99DeltaMs,
      unit: `ms (noise ±${fmt(s.p2?.p99NoiseMs, 1)} ms${s.p2?.p99NoiseMs > 5 ? ': too noisy to decide' : ''})`,
      target: '<= +5 ms',
      met: s.p2?.p99DeltaMs === undefined || s.p2?.p99NoiseMs > 5 ? undefined : s.p2.p99DeltaMs <= 5,
    },
    // The soak records MiB (2^20 bytes).
    { metric: `soak ${s.p4?.minutes ?? '?'} min: RSS first / last / max (sampled every 10 s)`, figure: s.p4?.rssMB?.first, unit: `MiB / ${fmt(s.p4?.rssMB?.last, 1)} / ${fmt(maxRss, 1)} MiB` },
    { metric: 'RSS under load (1000 connections, trading), max', figure: maxRss, unit: 'MiB', target: '<= 150 MiB', met: maxRss !== undefined ? maxRss <= 150 : undefined },
    { metric: 'soak: events lost / depth gaps', figure: (s.p4?.md?.gaps ?? 0) + (s.checks?.lostEvents ?? 0), unit: 'count', target: '0', met: (s.p4?.md?.gaps ?? 0) + (s.checks?.lostEvents ?? 0) === 0 },
  ];
}

function packageRows(p: Json | null): Row[] {
  if (p === null) return [];
  return [
    { metric: 'package tarball (npm pack)', figure: p.tarball?.bytes / 1024, unit: `KiB, ${p.tarball?.files} files` },
    { metric: 'install of the tarball into an empty project, median of 3', figure: p.installMs?.median, unit: 'ms' },
    { metric: "import 'spot-sim/fixture' to the first test body, median of 5", figure: p.importToFirstTestMs?.median, unit: 'ms' },
  ];
}

function resetRows(r: Json | null): Row[] {
  if (r === null) return [];
  const row = (name: string, what: string, target?: boolean): Row => ({
    metric: `sim.reset() p50, ${what}`,
    figure: r[name]?.p50Ms,
    unit: `ms (p99 ${fmt(r[name]?.p99Ms, 2)})`,
    target: target ? '< 2 ms' : undefined,
    met: target ? r[name]?.p50Ms < 2 : undefined,
  });
  const suite = r.suite;
  return [
    row('idle', 'after a reset (default config)', true),
    row('test', "after a typical test's activity", true),
    row('busy', 'after a minute of generator flow'),
    {
      metric: `${suite?.tests ?? 50}-test suite wall time, simIsolation 'test' (vs 'worker')`,
      figure: suite?.testWallMs / 1000,
      unit: 's',
      baseline: suite?.workerWallMs / 1000,
      ratio: suite?.testWallMs / suite?.workerWallMs,
    },
  ];
}

function routingRows(r: Json | null): Row[] {
  if (r === null) return [];
  const rows: Row[] = [];
  for (const [key, what] of [['restP50Ms', 'REST round trip p50'], ['wsApiP50Ms', 'WS API round trip p50'], ['burstMs', `${r.burst ?? 5000}-message burst to the page`]] as const) {
    for (const mode of ['mapped', 'routed'] as const) {
      const label = mode === 'mapped' ? 'routeBinanceHosts, Chromium host mapping' : 'routeBinanceHosts, Playwright routing';
      rows.push({ metric: `${what}, ${label} (vs direct)`, figure: r[mode]?.[key], unit: 'ms', baseline: r.direct?.[key], ratio: r[mode]?.[key] / r.direct?.[key] });
    }
  }
  rows.push({ metric: 'appServer start per worker (trading UI server), median of 5', figure: r.appServerStartMs?.median, unit: 'ms' });
  return rows;
}

function marketDataRows(m: Json | null): Row[] {
  if (m === null) return [];
  const t = m.targets ?? {};
  return [
    {
      metric: `GET klines limit=1000 (${fmt(m.klines?.bytes / 1024)} KiB), one keep-alive client (vs bare node:http hello)`,
      figure: m.klines?.reqPerSec,
      unit: `req/s (${fmt(m.klines?.ratioToSameBytes, 2)}x a bare server sending the same bytes)`,
      baseline: m.klines?.helloReqPerSec,
      ratio: m.klines?.ratioToHello,
      target: t.klines?.target,
      met: t.klines?.met,
    },
    { metric: `GET ticker/24hr, all ${m.tickers?.symbols ?? 20} symbols with a day of history, p50 over HTTP`, figure: m.tickers?.httpP50Ms, unit: `ms (handler alone ${fmt(m.tickers?.handlerP50Ms, 2)} ms)`, target: t.tickers?.target, met: t.tickers?.met },
    { metric: 'startSimulator p50, default history (1440 min; vs none)', figure: m.start?.historyP50Ms, unit: 'ms', baseline: m.start?.noHistoryP50Ms, ratio: m.start?.historyP50Ms / m.start?.noHistoryP50Ms, target: t.start?.target, met: t.start?.met },
    { metric: 'sim.reset() p50, default history (1440 min; vs none)', figure: m.reset?.historyP50Ms, unit: 'ms', baseline: m.reset?.noHistoryP50Ms, ratio: m.reset?.historyP50Ms / m.reset?.noHistoryP50Ms, target: t.reset?.target, met: t.reset?.met },
    {
      metric: '1,000,000 kept trades of one symbol: RSS growth',
      figure: m.keptTrades?.rssMiB,
      unit: `MiB (typed arrays ${fmt(m.keptTrades?.typedArraysMiB, 1)}, JS heap ${fmt(m.keptTrades?.heapMiB, 1)})`,
      target: t.keptTrades?.target,
      met: t.keptTrades?.met,
    },
  ];
}

function orderHistoryRows(o: Json | null): Row[] {
  if (o === null) return [];
  const q = o.allOrders;
  return [
    {
      metric: 'account place/match/cancel through the core, ended_orders "keep" (vs "forget")',
      figure: o.keep?.commandsPerCpuSecond,
      unit: 'commands per CPU-second',
      baseline: o.forget?.commandsPerCpuSecond,
      ratio: o.keepOverForget,
    },
    { metric: `memory per kept ended order (${fmt(o.memory?.kept)} kept; JS heap + array buffers)`, figure: o.memory?.bytesPerKeptOrder, unit: 'B' },
    {
      metric: `allOrders, ${fmt(q?.kept)} kept: first query (indexes them) / the latest 500`,
      figure: q?.firstQueryUs / 1000,
      unit: `ms CPU / ${fmt(q?.recent500Us / 1000, 2)} ms (1000 from the oldest ${fmt(q?.fromOldest1000Us / 1000, 2)}, a 1-hour window ${fmt(q?.hourWindowUs / 1000, 2)})`,
    },
  ];
}

function replayLoadRows(r: Json | null): Row[] {
  if (r === null) return [];
  const t = r.targets ?? {};
  const day = `${fmt(r.day?.aggregates)} aggregate trades, ${fmt(r.day?.zipBytes / 2 ** 20, 1)} MiB .zip`;
  // Wall time against the floor's, the ratio in CPU time (what holds up on a shared machine).
  const againstFloor = (metric: string, m: Json | undefined, target: Json | undefined): Row => ({
    metric,
    figure: m?.medianMs,
    unit: `ms (CPU ${fmt(m?.medianCpuMs)} ms against ${fmt(m?.bareMedianCpuMs)})`,
    baseline: m?.bareMedianMs,
    ratio: m?.medianCpuMs / m?.bareMedianCpuMs,
    target: target?.target,
    met: target?.met,
  });
  return [
    againstFloor(`replay: a day (${day}) loaded with an empty cache (vs reading and inflating the .zip alone)`, r.cold, t.cold),
    { metric: 'replay: memory per print once loaded (array buffers after gc)', figure: r.memory?.bytesPerPrint, unit: `B (RSS +${fmt(r.memory?.rssBytesPerPrintFromCache, 1)} B from the cache)`, target: t.bytesPerPrint?.target, met: t.bytesPerPrint?.met },
    againstFloor("replay: a later worker's load of the day from the cache (vs reading the entry's bytes alone)", r.cache, t.cache),
  ];
}

function replaySpeedRows(r: Json | null): Row[] {
  if (r === null) return [];
  const t = r.targets ?? {};
  const day = `${fmt(r.day?.prints)} prints`;
  const row = (metric: string, m: Json | undefined, target: Json | undefined): Row => ({
    metric,
    figure: m?.printsPerSec,
    unit: `prints/s (${fmt(m?.printsPerCpuSec)} per CPU-second)`,
    baseline: r.bare?.rowsPerSec,
    ratio: m?.printsPerCpuSec / r.bare?.rowsPerCpuSec,
    target: target?.target,
    met: target?.met,
  });
  return [
    row(`replay: a day (${day}) by one advanceTime, no subscriber (vs a bare loop over its rows)`, r.quiet, t.quiet),
    row(`replay: the same day by the minute, a trade and a kline subscriber (vs the bare loop)`, r.subscribers, t.subscribers),
  ];
}

/** The benches without a results file, on one line. */
function notRun(): string[] {
  const names = Object.entries(results).flatMap(([name, j]) => (j === null ? [name] : []));
  return names.length === 0 ? [] : [`- not in this run (no bench/results/<name>.json): ${names.join(', ')}`];
}

function conditions(name: string, j: Json): string {
  const load = j.loadAverage?.atStart ?? j.loadavg?.atStart ?? j.loadavg;
  const loadText = Array.isArray(load) ? ` load average at start ${load.map((v: number) => v.toFixed(2)).join(' / ')}` : '';
  const runs = typeof j.runsMerged === 'number' ? `, median of ${j.runsMerged} runs` : '';
  return `- ${name}: ${j.date ?? '?'}, node ${j.node ?? '?'}, ${j.cores ?? '?'} cores${loadText}, ${fmt(j.wallSeconds)} s${runs}`;
}

const results = {
  engine: load('engine'),
  rest: load('rest'),
  ws: load('ws'),
  'market-push': load('market-push'),
  'market-data': load('market-data'),
  'order-history': load('order-history'),
  soak: load('soak'),
  reset: load('reset'),
  package: load('package'),
  routing: load('routing'),
  'replay-load': load('replay-load'),
  'replay-speed': load('replay-speed'),
};
const rows = [
  ...engineRows(results.engine),
  ...restRows(results.rest),
  ...wsRows(results.ws),
  ...pushRows(results['market-push']),
  ...marketDataRows(results['market-data']),
  ...orderHistoryRows(results['order-history']),
  ...soakRows(results.soak),
  ...resetRows(results.reset),
  ...packageRows(results.package),
  ...routingRows(results.routing),
  ...replayLoadRows(results['replay-load']),
  ...replaySpeedRows(results['replay-speed']),
];
const lines = [
  '## The latest `npm run bench`',
  '',
  'Written by `npm run bench` (bench/report.ts) from `bench/results/*.json`. Baselines are measured in',
  'the same run: nodejs-order-book for the engine, a bare node:http hello-world for REST and klines, a',
  'bare `ws` echo / broadcast server for the WebSocket figures, ended orders forgotten for the order',
  'history. Clients run in separate processes.',
  '',
  '| metric | figure | unit | baseline | ratio | target | met |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.metric} | ${fmt(r.figure, r.figure !== undefined && r.figure < 10 ? 2 : 1)} | ${r.unit} | ${fmt(r.baseline, 1)} | ${r.ratio === undefined || !Number.isFinite(r.ratio) ? '—' : `${r.ratio.toFixed(2)}x`} | ${r.target ?? '—'} | ${r.met === undefined ? '—' : r.met ? 'yes' : '**no**'} |`,
  ),
  '',
  '### Conditions',
  '',
  ...Object.entries(results).flatMap(([name, j]) => (j === null ? [] : [conditions(name, j)])),
  ...notRun(),
  '',
];
const out = join(dir, 'REPORT.md');
writeReportSection(out, 'figures', lines);
console.log(lines.join('\n'));
console.log(`written: ${out}`);

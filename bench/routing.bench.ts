// routeBinanceHosts benchmark (issue 15's figures): what a page pays for reaching the worker's
// simulator through the production host names, against reaching it directly, in one run and
// one Chromium build:
//   direct   the page uses http://127.0.0.1:<port> and ws://127.0.0.1:<port> (the simulator's own URLs)
//   mapped   Chromium host mapping (what routeBinanceHosts uses in Chromium): https/wss to the
//            production names, resolved to the simulator's TLS listener
//   routed   Playwright routing (what routeBinanceHosts uses in Firefox/WebKit), run in Chromium
// Figures measured inside the page: REST round trip p50 (GET /api/v3/time, sequential), WS API
// round trip p50 (`ping`, sequential), and a 5000-message burst to the page (5000 pipelined WS
// API pings, until the last reply arrives). Also: the per-worker app server's start (spawn to
// its URL answering) for the trading UI example's server, median of 5.
//
//   npm run bench:routing            (needs Chromium: /usr/bin/chromium or Playwright's own)
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startSimulator } from '../src/index.ts';
import { LOOPBACK_ONLY_FLAG, withHostMapping } from '../src/fixture/binance-hosts.ts';
import { routeBinanceThroughPlaywright } from '../src/fixture/route-binance.ts';
import { AppServer } from '../src/fixture/app-server.ts';
import { envNumber, median, runInfo, writeResults } from './support.ts';

const SEQUENTIAL = envNumber('ROUTING_SEQUENTIAL', 200);
const BURST = envNumber('ROUTING_BURST', 5000);
const executablePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;

interface PageFigures {
  restP50Ms: number;
  wsApiP50Ms: number;
  burstMs: number;
}

/**
 * Runs in the page: the three measurements against the given base URLs. Plain text, not a
 * function: tsx's transform would put its helpers (`__name`) into a function's source.
 */
const PAGE_SCRIPT = `async ({ rest, wsApi, sequential, burst }) => {
  const p50 = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const restTimes = [];
  for (let i = 0; i < sequential; i++) {
    const t0 = performance.now();
    await (await fetch(rest + '/api/v3/time')).json();
    restTimes.push(performance.now() - t0);
  }
  const ws = new WebSocket(wsApi + '/ws-api/v3');
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  let waiting = null;
  ws.onmessage = (m) => waiting && waiting(JSON.parse(m.data).id);
  const rtt = [];
  for (let id = 0; id < sequential; id++) {
    const t0 = performance.now();
    const replied = new Promise((resolve) => { waiting = resolve; });
    ws.send(JSON.stringify({ id, method: 'ping' }));
    await replied;
    rtt.push(performance.now() - t0);
  }
  let left = burst;
  const done = new Promise((resolve) => { waiting = () => { if (--left === 0) resolve(); }; });
  const t0 = performance.now();
  for (let id = 0; id < burst; id++) ws.send(JSON.stringify({ id, method: 'ping' }));
  await done;
  const burstMs = performance.now() - t0;
  ws.close();
  return { restP50Ms: p50(restTimes), wsApiP50Ms: p50(rtt), burstMs };
}`;

async function measure(page: Page, rest: string, wsApi: string): Promise<PageFigures> {
  const args = JSON.stringify({ rest, wsApi, sequential: SEQUENTIAL, burst: BURST });
  return (await page.evaluate(`(${PAGE_SCRIPT})(${args})`)) as PageFigures;
}

const sim = await startSimulator({
  config: { sim: { port: 0, tls_port: 0, generator: { enabled: false }, limits: { weight_per_minute: 10_000_000 } } },
});
// The page's own origin (a blank page on loopback, like an app server).
const app = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>bench</title>'));
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
const browsers: Browser[] = [];
try {
  const launch = async (args: string[]) => {
    const browser = await chromium.launch({ executablePath, args });
    browsers.push(browser);
    return browser;
  };
  const plain = await launch([LOOPBACK_ONLY_FLAG]);
  const mappedBrowser = await launch(withHostMapping([LOOPBACK_ONLY_FLAG], sim.ports.https));

  const results: Record<string, PageFigures> = {};
  const run = async (name: string, browser: Browser, rest: string, wsApi: string, setup?: (page: Page) => Promise<void>) => {
    const context = await browser.newContext({ ignoreHTTPSErrors: name === 'mapped' });
    const page = await context.newPage();
    await setup?.(page);
    await page.goto(appUrl);
    results[name] = await measure(page, rest, wsApi);
    await context.close();
    const r = results[name]!;
    console.log(`${name.padEnd(7)} REST p50 ${r.restP50Ms.toFixed(2)} ms, WS API round trip p50 ${r.wsApiP50Ms.toFixed(2)} ms, ${BURST}-message burst ${r.burstMs.toFixed(0)} ms`);
  };
  await run('direct', plain, sim.urls.http, sim.urls.ws);
  await run('mapped', mappedBrowser, 'https://api.binance.com', 'wss://ws-api.binance.com');
  await run('routed', plain, 'https://api.binance.com', 'wss://ws-api.binance.com', (page) => routeBinanceThroughPlaywright(page.context(), sim.urls));
  const appStarts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const started = await AppServer.start({ command: 'node examples/trading-ui/server.mjs', url: 'http://127.0.0.1:{port}/' }, sim, join(import.meta.dirname, '..'));
    appStarts.push(performance.now() - t0);
    await started.stop();
  }
  console.log(`appServer start (node examples/trading-ui/server.mjs until it answers): median ${median(appStarts).toFixed(0)} ms of ${appStarts.map((x) => x.toFixed(0)).join(', ')}`);
  writeResults(join(import.meta.dirname, 'results', 'routing.json'), { ...runInfo('routing'), sequential: SEQUENTIAL, burst: BURST, ...results, appServerStartMs: { median: median(appStarts), runs: appStarts } });
} finally {
  for (const browser of browsers) await browser.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
  await sim.stop();
}

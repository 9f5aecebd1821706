// The trading UI's own server (plain node, no deps): the static page and its settings.
//
//   PORT=8080 BINANCE_API_KEY=... BINANCE_API_SECRET=... node examples/trading-ui/server.mjs
//
// Under test, spot-sim's `appServer` starts it once per worker with PORT and the worker's
// simulator credentials (SPOT_SIM_API_KEY / SPOT_SIM_API_SECRET), which stand in for the
// BINANCE_* variables; the page itself always talks to the production hosts.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

const FILES = { '/': 'index.html', '/index.html': 'index.html', '/app.js': 'app.js', '/chart.js': 'chart.js', '/style.css': 'style.css' };
// The candle chart's library (npm `lightweight-charts`, Apache-2.0), its standalone browser build.
FILES['/lightweight-charts.js'] = new URL('lightweight-charts.standalone.production.js', import.meta.resolve('lightweight-charts'));
FILES['/order-history.js'] = 'order-history.js'; // order history panel (issue 25)
FILES['/open-orders.js'] = 'open-orders.js';
FILES['/rest.js'] = 'rest.js';
FILES['/order-tabs.js'] = 'order-tabs.js'; // the Stop-Limit and OCO tabs
const TYPES = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
const env = process.env;
const settings = {
  apiKey: env.BINANCE_API_KEY ?? env.SPOT_SIM_API_KEY ?? '',
  apiSecret: env.BINANCE_API_SECRET ?? env.SPOT_SIM_API_SECRET ?? '',
  symbol: env.SYMBOL ?? 'BTCUSDT',
};

const server = createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (req.method === 'GET' && path === '/config.json') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(settings));
    return;
  }
  const file = FILES[path];
  if (req.method !== 'GET' || file === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  try {
    const body = await readFile(new URL(file, import.meta.url));
    res.writeHead(200, { 'Content-Type': TYPES[String(file).split('.').pop()], 'Cache-Control': 'no-store' }).end(body);
  } catch {
    res.writeHead(500).end();
  }
});
const port = Number(env.PORT ?? 8080);
server.listen(port, env.HOST ?? '127.0.0.1', () => console.log(`trading UI: http://${env.HOST ?? '127.0.0.1'}:${port}/`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)).closeAllConnections());

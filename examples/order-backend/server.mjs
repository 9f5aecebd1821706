// An app with a backend of its own (plain node, no deps): the browser never sees the API
// secret; it posts orders to this server, which signs them (HMAC-SHA256) and sends them to the
// exchange. The exchange's base URL comes from the environment, so under test each Playwright
// worker's copy of this server (spot-sim's `appServer`) talks to that worker's simulator.
//
//   PORT=8081 SPOT_SIM_HTTP_URL=http://127.0.0.1:9080 node examples/order-backend/server.mjs
//   (in production: BINANCE_API_URL, BINANCE_API_KEY, BINANCE_API_SECRET)
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

const env = process.env;
const exchange = (env.SPOT_SIM_HTTP_URL ?? env.BINANCE_API_URL ?? 'https://api.binance.com').replace(/\/+$/, '');
const apiKey = env.SPOT_SIM_API_KEY ?? env.BINANCE_API_KEY ?? '';
const apiSecret = env.SPOT_SIM_API_SECRET ?? env.BINANCE_API_SECRET ?? '';
const SYMBOL = env.SYMBOL ?? 'BTCUSDT';
const MAX_BODY = 16 * 1024;

/** One signed call to the exchange; resolves to { status, body }. */
async function signed(method, path, params) {
  const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) });
  query.set('signature', createHmac('sha256', apiSecret).update(query.toString()).digest('hex'));
  const res = await fetch(`${exchange}${path}?${query}`, { method, headers: { 'X-MBX-APIKEY': apiKey } });
  return { status: res.status, body: await res.json() };
}

async function readJson(req) {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > MAX_BODY) throw new Error('body too large');
  }
  return JSON.parse(text || '{}');
}

const routes = {
  'GET /health': async () => ({ status: 200, body: { ok: true, symbol: SYMBOL } }),
  'GET /api/orders': () => signed('GET', '/api/v3/openOrders', { symbol: SYMBOL }),
  'POST /api/orders': async (req) => {
    const { side, price, quantity } = await readJson(req);
    return signed('POST', '/api/v3/order', { symbol: SYMBOL, side, type: 'LIMIT', timeInForce: 'GTC', price, quantity });
  },
  'DELETE /api/orders': async (req, url) => signed('DELETE', '/api/v3/order', { symbol: SYMBOL, orderId: url.searchParams.get('orderId') ?? '' }),
};

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(await readFile(new URL('index.html', import.meta.url)));
    return;
  }
  const route = routes[`${req.method} ${url.pathname}`];
  if (route === undefined) {
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
    return;
  }
  try {
    const { status, body } = await route(req, url);
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  } catch (error) {
    res.writeHead(502, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: String(error.message ?? error) }));
  }
});
const port = Number(env.PORT ?? 8081);
server.listen(port, '127.0.0.1', () => console.log(`order backend: http://127.0.0.1:${port}/ -> ${exchange}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)).closeAllConnections());

// An order-book widget written as React apps often are (issue 34, 6a), served unchanged to
// Chromium with the reference exchange's hosts routed to the worker's simulator: it opens
// wss://stream.binance.com:9443/stream?streams= with no stream and sends SUBSCRIBE on every
// render. Its first renders come before the socket opens, so their eight SUBSCRIBEs leave
// together: more than the 5 incoming messages a second the reference allows, and as on the
// reference (web-socket-streams.md, "WebSocket Limits") the connection is closed (1008). The
// widget reconnects, subscribes again and must then get its candles. Two tests in one worker on
// the manual clock: the second runs after the fixture's per-test reset (the clock back at its
// start) and must see what the first saw. Before the fix its first pushes were skipped (the
// pushes remembered the first test's last instants) and its "Last sell" stayed 0.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from 'spot-sim/fixture';

test.use({ routeBinanceHosts: true, simConfig: { sim: { clock: 'manual', start_time_ms: Date.UTC(2026, 0, 15, 12), generator: { enabled: false } } } });

const WIDGET = `<!doctype html><meta charset="utf-8"><title>order book</title>
<p>Last sell: <span data-testid="last">0</span></p>
<p>Subscribed: <span data-testid="subscribed">no</span></p>
<p>Closes: <span data-testid="closes"></span></p>
<script>
const STREAMS = ['btcusdt@depth', 'btcusdt@kline_1s'];
const state = { last: '0', subscribed: 'no', closes: [] };
let socket = null;
let id = 0;
// Every render: draw, then (an effect without dependencies) subscribe on the current socket,
// once it is open.
function render() {
  document.querySelector('[data-testid=last]').textContent = state.last;
  document.querySelector('[data-testid=subscribed]').textContent = state.subscribed;
  document.querySelector('[data-testid=closes]').textContent = state.closes.join(',');
  const ws = socket;
  const subscribe = () => ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: STREAMS, id: ++id }));
  if (ws.readyState === WebSocket.OPEN) subscribe();
  else if (ws.readyState === WebSocket.CONNECTING) ws.addEventListener('open', subscribe, { once: true });
}
// As React's useState: a render only when a value changed.
function setState(patch, force = false) {
  const changed = Object.keys(patch).some((k) => state[k] !== patch[k]);
  Object.assign(state, patch);
  if (changed || force) render();
}
function connect() {
  const ws = new WebSocket('wss://stream.binance.com:9443/stream?streams=');
  socket = ws;
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.result === null) setState({ subscribed: 'yes' });
    else if (msg.stream === 'btcusdt@kline_1s') setState({ last: Number(msg.data.k.c).toFixed(2) });
    else if (msg.stream === 'btcusdt@depth') setState({ book: msg.data.u });
  };
  ws.onclose = (e) => {
    if (socket !== ws) return;
    setState({ closes: [...state.closes, e.code], subscribed: 'no' });
    // Reconnecting is a state change too: the render after it subscribes on the new socket.
    setTimeout(() => {
      connect();
      setState({}, true);
    }, 200);
  };
}
connect();
// The first renders (state settling as the app mounts), all before the socket opens.
for (let i = 0; i < 8; i++) render();
</script>`;

let server: Server;
let pageUrl = '';
test.beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(WIDGET));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

for (const world of ['first', 'second']) {
  test(`the ${world} test: the burst is cut as on the reference, the widget reconnects and gets its candle`, async ({ page, sim, market }) => {
    await page.goto(pageUrl);
    // Eight SUBSCRIBEs at once: the connection is closed, the widget reconnects and subscribes.
    await expect(page.getByTestId('closes')).toHaveText('1008');
    await expect(page.getByTestId('subscribed')).toHaveText('yes');
    market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.01' });
    market.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
    sim.advanceTime(100);
    await expect(page.getByTestId('last')).toHaveText('60000.00');
    await expect(page.getByTestId('closes')).toHaveText('1008');
  });
}

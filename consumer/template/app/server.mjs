// A consumer's web app as it might be (its `npm run dev -- --port N --strictPort`): a page that
// reads the reference exchange's production REST and stream hosts and shows the best ask.
import { createServer } from 'node:http';

const PAGE = `<!doctype html><meta charset="utf-8"><title>best ask</title>
<p>Best ask: <span data-testid="best-ask">…</span></p>
<script type="module">
  const show = (price) => (document.querySelector('[data-testid="best-ask"]').textContent =
    Number(price).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  const depth = await (await fetch('https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=5')).json();
  if (depth.asks.length > 0) show(depth.asks[0][0]);
  const ws = new WebSocket('wss://stream.binance.com:9443/ws/btcusdt@bookTicker');
  ws.onmessage = (m) => show(JSON.parse(m.data).a);
</script>`;

const at = process.argv.indexOf('--port');
const port = Number(at > 0 ? process.argv[at + 1] : process.env.PORT ?? 5173);
createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE))
  .listen(port, '127.0.0.1', () => console.log(`dev server on http://127.0.0.1:${port}`));

// A small trading page of the kind spot-sim is for: plain ES module, no build step, no deps.
// It talks to the reference exchange's production endpoints, as a real app does; nothing in it
// knows about spot-sim. Its tests route those hosts to a local exchange (the fixture's
// `routeBinanceHosts`), and its server (server.mjs) hands it the API credentials.
// - market data on one combined stream `/stream?streams=<s>@depth@100ms/<s>@trade`; the book
//   is kept by the reference local-order-book algorithm (buffer diffs, REST snapshot, drop
//   diffs with u <= lastUpdateId, apply; a diff with U > book id + 1 is a gap -> resync);
// - orders over REST, HMAC-SHA256 signed in the browser with WebCrypto (rest.js);
// - open orders and fills from the WS API user data stream
//   (`userDataStream.subscribe.signature`), reconciled with GET /api/v3/openOrders
//   (the Open orders panel: open-orders.js);
// - beside Limit / Market, a Stop-Limit tab and an OCO form (order-tabs.js).
//
// A secret in a browser page is for a local test exchange only; a production app keeps it in
// its backend (see examples/order-backend).

// ---- order history panel (issue 25): its own module, wired in the blocks marked like this ----
import { createOrderHistory } from './order-history.js';
// ---- end order history ----
import { createOpenOrders } from './open-orders.js';
import { createOrderTabs } from './order-tabs.js';
import { createRest, describe } from './rest.js';

const ENDPOINTS = {
  rest: 'https://api.binance.com',
  streams: 'wss://stream.binance.com:9443',
  wsApi: 'wss://ws-api.binance.com:443/ws-api/v3',
};
const MAX_TRADES = 20;
const MAX_LOG = 50;

// The app's settings (credentials, symbol, book depth) come from its own server.
const settings = await (await fetch('/config.json')).json();
const cfg = {
  rest: ENDPOINTS.rest,
  apiKey: settings.apiKey,
  apiSecret: settings.apiSecret,
  symbol: String(settings.symbol ?? 'BTCUSDT').toUpperCase(),
  levels: Number(settings.levels ?? 10),
  snapshotLimit: Number(settings.snapshotLimit ?? 1000),
};
const stream = cfg.symbol.toLowerCase();

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'testid') node.dataset.testid = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const clock = (ms) => new Date(ms).toISOString().slice(11, 23);

// ------------------------------------------------------------------ formatting

let priceDecimals = null;
let qtyDecimals = null;

function decimalsOf(step) {
  const [, frac = ''] = String(step).split('.');
  const trimmed = frac.replace(/0+$/, '');
  return trimmed.length;
}

/** Cuts a decimal string to `decimals` places (exchange strings are exact; no float rounding). */
function fmt(value, decimals) {
  if (decimals === null || value === undefined) return String(value);
  const [int, frac = ''] = String(value).split('.');
  return decimals === 0 ? int : `${int}.${frac.padEnd(decimals, '0').slice(0, decimals)}`;
}
const px = (v) => fmt(v, priceDecimals);
const qty = (v) => fmt(v, qtyDecimals);

// ------------------------------------------------------------------ REST (rest.js) and the instrument

const { api, sign, now, syncClock } = createRest(cfg);

async function loadInstrument() {
  const info = await api('GET', '/api/v3/exchangeInfo', { symbol: cfg.symbol });
  const symbolInfo = info.symbols?.[0] ?? {};
  orderTabs.setSymbolInfo(symbolInfo);
  const filters = symbolInfo.filters ?? [];
  const price = filters.find((f) => f.filterType === 'PRICE_FILTER');
  const lot = filters.find((f) => f.filterType === 'LOT_SIZE');
  if (price) priceDecimals = decimalsOf(price.tickSize);
  if (lot) qtyDecimals = decimalsOf(lot.stepSize);
}

// ------------------------------------------------------------------ connection log

function log(text) {
  const list = $('conn-log');
  list.prepend(el('li', {}, `${clock(Date.now())} ${text}`));
  while (list.children.length > MAX_LOG) list.lastElementChild.remove();
}

function setState(testid, state, detail = '') {
  const node = $(testid);
  if (node.dataset.state !== state) log(`${testid === 'conn-state' ? 'market data' : 'user data'}: ${state}${detail ? ` (${detail})` : ''}`);
  node.textContent = state;
  node.dataset.state = state;
  if (testid === 'conn-state') {
    $('conn-detail').textContent = detail;
    document.body.dataset.market = state; // the book is greyed out while it is not live
  }
}

// ------------------------------------------------------------------ market data + local book

const md = {
  ws: null,
  /** Bumped on every new connection: callbacks and resyncs of an older one stop. */
  gen: 0,
  mode: 'syncing', // 'syncing' (buffering diffs) or 'live' (applying them)
  buffer: [],
  bookId: 0,
  bids: new Map(),
  asks: new Map(),
  attempts: 0,
  gaps: 0,
  resyncs: 0,
  synced: false,
  trades: [],
};

function connectMarket() {
  const gen = ++md.gen;
  md.mode = 'syncing';
  md.buffer = [];
  const ws = new WebSocket(`${ENDPOINTS.streams}/stream?streams=${stream}@depth@100ms/${stream}@trade`);
  md.ws = ws;
  ws.onopen = () => {
    if (gen !== md.gen) return;
    log('market data: connected');
    resync(gen, md.synced ? 'reconnected, rebuilding the book' : 'loading the book');
  };
  ws.onmessage = (message) => {
    if (gen !== md.gen) return;
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      log('market data: ignored a frame that is not JSON');
      return;
    }
    const data = frame?.data;
    if (data?.e === 'depthUpdate') onDepth(gen, data);
    else if (data?.e === 'trade') onTrade(data);
  };
  ws.onclose = (event) => {
    if (gen !== md.gen) return;
    md.gen++; // stops a resync of this connection that is still waiting for its snapshot
    md.ws = null;
    const delay = Math.min(1000 * 2 ** md.attempts, 10_000);
    md.attempts++;
    setState('conn-state', 'reconnecting', `connection closed (code ${event.code}), retrying in ${delay / 1000} s`);
    setTimeout(connectMarket, delay);
  };
}

function onDepth(gen, diff) {
  if (md.mode !== 'live') {
    md.buffer.push(diff);
    return;
  }
  if (applyDiff(diff)) return scheduleRender();
  // Step 6: U > book id + 1 means diffs were lost; the book is rebuilt on the same connection.
  md.gaps++;
  log(`gap in the depth stream: book at update id ${md.bookId}, next diff starts at ${diff.U}`);
  md.buffer = [diff];
  resync(gen, `gap after update id ${md.bookId}`);
}

/** Step 6 for one diff; false when it does not follow the book (a gap). */
function applyDiff(diff) {
  if (diff.u <= md.bookId) return true;
  if (diff.U > md.bookId + 1) return false;
  for (const [p, q] of diff.b) setLevel(md.bids, p, q);
  for (const [p, q] of diff.a) setLevel(md.asks, p, q);
  md.bookId = diff.u;
  return true;
}

function setLevel(side, price, quantity) {
  if (Number(quantity) === 0) side.delete(price);
  else side.set(price, quantity);
}

/** Steps 2-5 (snapshot, drop old diffs, apply the buffered rest) until the book is in sync. */
async function resync(gen, reason) {
  md.mode = 'syncing';
  setState('conn-state', 'resyncing', reason);
  for (;;) {
    let snapshot;
    try {
      snapshot = await api('GET', '/api/v3/depth', { symbol: cfg.symbol, limit: cfg.snapshotLimit });
    } catch (error) {
      if (gen !== md.gen) return;
      log(`depth snapshot failed: ${error.message}; retrying in 1 s`);
      await sleep(1000);
      if (gen !== md.gen) return;
      continue;
    }
    if (gen !== md.gen) return;
    const pending = md.buffer.filter((diff) => diff.u > snapshot.lastUpdateId);
    if (pending.length > 0 && pending[0].U > snapshot.lastUpdateId + 1) {
      // Step 3: the snapshot is older than the stream; fetch it again.
      md.buffer = pending;
      continue;
    }
    md.bids = new Map(snapshot.bids);
    md.asks = new Map(snapshot.asks);
    md.bookId = snapshot.lastUpdateId;
    md.buffer = [];
    const gapAt = pending.findIndex((diff) => !applyDiff(diff));
    if (gapAt !== -1) {
      md.buffer = pending.slice(gapAt);
      continue;
    }
    if (priceDecimals === null) loadInstrument().then(scheduleRender, () => {}); // the exchange was down at page load
    if (md.synced) md.resyncs++;
    md.synced = true;
    md.mode = 'live';
    md.attempts = 0;
    log(`book in sync from snapshot ${snapshot.lastUpdateId}`);
    setState('conn-state', 'live');
    scheduleRender();
    return;
  }
}

function onTrade(trade) {
  md.trades.unshift(trade);
  md.trades.length = Math.min(md.trades.length, MAX_TRADES);
  scheduleRender();
}

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    renderBook();
    renderTrades();
  });
}

function renderBook() {
  const byPrice = (desc) => (x, y) => (desc ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0]));
  const bids = [...md.bids].sort(byPrice(true)).slice(0, cfg.levels);
  const asks = [...md.asks].sort(byPrice(false)).slice(0, cfg.levels);
  const row = (testid) => ([p, q]) => el('tr', { testid }, el('td', {}, px(p)), el('td', {}, qty(q)));
  $('asks').replaceChildren(...asks.reverse().map(row('ask-level')));
  $('bids').replaceChildren(...bids.map(row('bid-level')));
  const bestBid = bids[0]?.[0];
  const bestAsk = asks[asks.length - 1]?.[0];
  $('spread').textContent = bestBid && bestAsk ? `spread ${(Number(bestAsk) - Number(bestBid)).toFixed(priceDecimals ?? 2)}` : '–';
  $('book-update-id').textContent = md.synced ? String(md.bookId) : '–';
  $('gap-count').textContent = String(md.gaps);
  $('resync-count').textContent = String(md.resyncs);
}

function renderTrades() {
  $('trades').replaceChildren(
    ...md.trades.map((t) =>
      el('tr', { testid: 'trade', class: t.m ? 'sell' : 'buy' }, el('td', {}, px(t.p)), el('td', {}, qty(t.q)), el('td', {}, clock(t.T).slice(0, 8))),
    ),
  );
}

// ------------------------------------------------------------------ orders and user data

function showError(text) {
  const node = $('order-error');
  node.textContent = text;
  node.hidden = false;
}

function showResult(text) {
  $('order-error').hidden = true;
  $('order-result').textContent = text;
}

async function placeOrder(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const data = new FormData(form);
  const params = { symbol: cfg.symbol, side: data.get('side'), type: data.get('type'), quantity: String(data.get('quantity')).trim() };
  if (params.type === 'LIMIT') Object.assign(params, { timeInForce: 'GTC', price: String(data.get('price')).trim() });
  params.newOrderRespType = 'RESULT';
  const button = $('order-submit');
  button.disabled = true;
  $('order-result').textContent = 'placing…';
  $('order-error').hidden = true;
  try {
    const order = await api('POST', '/api/v3/order', params, true);
    showResult(`Order ${order.orderId} ${order.status}`);
    openOrders.upsertReply(order);
  } catch (error) {
    $('order-result').textContent = '';
    showError(`Order rejected: ${describe(error)}`);
  } finally {
    button.disabled = false;
  }
}

function onExecutionReport(e) {
  orderHistory.onExecutionReport(e); // ---- order history ----
  if (e.s !== cfg.symbol) return;
  openOrders.onExecutionReport(e);
  if (e.x === 'TRADE') {
    const item = el('li', { testid: 'fill', 'data-order-id': String(e.i), class: e.S === 'BUY' ? 'buy' : 'sell' },
      `${clock(e.T).slice(0, 8)} ${e.S} ${qty(e.l)} @ ${px(e.L)} · order ${e.i} ${e.X} (filled ${qty(e.z)} of ${qty(e.q)})`);
    $('fills').prepend(item);
  }
}

const user = { attempts: 0, nextId: 1 };

function connectUser() {
  const ws = new WebSocket(ENDPOINTS.wsApi);
  const subscribeId = user.nextId++;
  ws.onopen = async () => {
    // WS API signature: every param but `signature`, sorted by name, k=v joined by &, unencoded.
    const params = { apiKey: cfg.apiKey, timestamp: now() };
    const payload = Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&');
    try {
      params.signature = await sign(payload);
    } catch (error) {
      setState('user-state', 'unavailable', error.message);
      return;
    }
    ws.send(JSON.stringify({ id: subscribeId, method: 'userDataStream.subscribe.signature', params }));
  };
  ws.onmessage = (message) => {
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    if (frame.id === subscribeId) {
      if (frame.status === 200) {
        user.attempts = 0;
        setState('user-state', 'live');
        openOrders.refresh(); // anything that happened while not subscribed
        orderHistory.refresh(); // ---- order history ----
      } else {
        setState('user-state', 'refused', `${frame.error?.msg} (code ${frame.error?.code})`);
      }
    } else if (frame.event?.e === 'executionReport') {
      onExecutionReport(frame.event);
    } else if (frame.event?.e === 'listStatus') {
      openOrders.onListStatus(frame.event);
    }
  };
  ws.onclose = (event) => {
    const delay = Math.min(1000 * 2 ** user.attempts, 10_000);
    user.attempts++;
    setState('user-state', 'reconnecting', `code ${event.code}, retrying in ${delay / 1000} s`);
    setTimeout(connectUser, delay);
  };
}

// ---- order history panel (issue 25) ----
const orderHistory = createOrderHistory({ api, symbol: cfg.symbol, px, qty, el, clock });
// ---- end order history ----
const openOrders = createOpenOrders({ api, symbol: cfg.symbol, px, qty, el, showResult, showError, describe });
const orderTabs = createOrderTabs({ api, symbol: cfg.symbol, px, openOrders, showResult, showError, describe });

// ------------------------------------------------------------------ start

$('symbol').textContent = cfg.symbol;
document.title = `${cfg.symbol} · trading UI`;
$('order-form').addEventListener('submit', placeOrder);
$('order-type').addEventListener('change', (event) => {
  $('order-price').disabled = event.currentTarget.value !== 'LIMIT';
});
openOrders.render();
await Promise.allSettled([syncClock(), loadInstrument()]);
connectMarket();
connectUser();
openOrders.refresh();

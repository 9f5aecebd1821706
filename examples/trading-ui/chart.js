// The candle chart and the 24 h ticker strip of the trading UI example, drawn with TradingView's
// lightweight-charts (Apache-2.0, served by server.mjs from node_modules). Like app.js it talks
// only to the production hosts: history from GET /api/v3/klines and /api/v3/ticker/24hr, then
// the `<s>@kline_1m` and `<s>@ticker` streams keep the last candle and the strip current. A
// refused klines request shows the chart's error state and is retried after 2 s.

/* global LightweightCharts */
const ENDPOINTS = { rest: 'https://api.binance.com', streams: 'wss://stream.binance.com:9443' };
const RETRY_MS = 2000;

const settings = await (await fetch('/config.json')).json();
const symbol = String(settings.symbol ?? 'BTCUSDT').toUpperCase();
const stream = symbol.toLowerCase();
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const box = $('chart');
const chart = LightweightCharts.createChart(box, {
  height: 260,
  layout: { background: { color: '#1d2026' }, textColor: '#8a9099' },
  grid: { vertLines: { color: '#2c3038' }, horzLines: { color: '#2c3038' } },
  timeScale: { timeVisible: true, secondsVisible: false },
});
const candles = chart.addSeries(LightweightCharts.CandlestickSeries, {
  upColor: '#2ebd85',
  downColor: '#f6465d',
  borderVisible: false,
  wickUpColor: '#2ebd85',
  wickDownColor: '#f6465d',
});

/** What the page shows of the last candle, for people and tests alike. */
let count = 0;
function showLast(openTime, close, trades) {
  box.dataset.candles = String(count);
  box.dataset.lastOpenTime = String(openTime);
  box.dataset.lastClose = close;
  box.dataset.lastTrades = String(trades);
}

function chartState(state, message = '') {
  box.dataset.state = state;
  const error = $('chart-error');
  error.hidden = state !== 'error';
  error.textContent = message;
}

const bar = (openTime, open, high, low, close) => ({ time: openTime / 1000, open: Number(open), high: Number(high), low: Number(low), close: Number(close) });

async function loadHistory() {
  for (;;) {
    try {
      const res = await fetch(`${ENDPOINTS.rest}/api/v3/klines?symbol=${symbol}&interval=1m&limit=500`);
      const body = await res.json();
      if (!res.ok) throw new Error(`${body.code} ${body.msg}`);
      candles.setData(body.map((k) => bar(k[0], k[1], k[2], k[3], k[4])));
      count = body.length;
      const last = body[body.length - 1];
      if (last) showLast(last[0], last[4], last[8]);
      chartState('live');
      return;
    } catch (error) {
      chartState('error', `Chart unavailable: ${error.message}; retrying`);
      await sleep(RETRY_MS);
    }
  }
}

function showTicker(t) {
  const change = Number(t.priceChangePercent);
  $('ticker-last').textContent = Number(t.lastPrice).toFixed(2);
  $('ticker-change').textContent = `${change > 0 ? '+' : ''}${change.toFixed(2)}%`;
  $('ticker-change').className = change < 0 ? 'sell' : 'buy';
  $('ticker-high').textContent = Number(t.highPrice).toFixed(2);
  $('ticker-low').textContent = Number(t.lowPrice).toFixed(2);
  $('ticker-volume').textContent = Number(t.volume).toFixed(3);
  $('ticker-count').textContent = String(t.count);
}

async function loadTicker() {
  const res = await fetch(`${ENDPOINTS.rest}/api/v3/ticker/24hr?symbol=${symbol}`);
  if (res.ok) showTicker(await res.json());
}

function connect() {
  const ws = new WebSocket(`${ENDPOINTS.streams}/stream?streams=${stream}@kline_1m/${stream}@ticker`);
  ws.onmessage = (message) => {
    const { stream: name, data } = JSON.parse(message.data);
    if (name.endsWith('@kline_1m')) {
      const k = data.k;
      if (Number(box.dataset.lastOpenTime) !== k.t) count++;
      candles.update(bar(k.t, k.o, k.h, k.l, k.c));
      showLast(k.t, k.c, k.n);
    } else {
      showTicker({ lastPrice: data.c, priceChangePercent: data.P, highPrice: data.h, lowPrice: data.l, volume: data.v, count: data.n });
    }
  };
  ws.onclose = () => setTimeout(connect, RETRY_MS);
}

await Promise.all([loadHistory(), loadTicker()]);
connect();

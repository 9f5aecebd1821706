// The REST clients of the compatibility specs, each pointed at the fixture's simulator only
// through the library's own options (client-requests.md §1), in one place so every spec points
// them the same way:
// - ccxt: every `urls.api` entry moved onto the simulator's origin (path kept), so a stray
//   sapi/fapi/dapi call shows up as the simulator's 404 instead of reaching the real venue; spot
//   markets only (no /sapi capital config or margin pairs, no fapi/dapi exchangeInfo);
// - @binance/spot: `basePath`, with its 1000 ms timeout and 3 retries on GET/DELETE replaced
//   (a compatibility test wants the first answer);
// - binance-api-node: `httpBase`, `wsBase` (`<ws>/ws`, the raw-stream base) and `wsApi`
//   (`<ws>/ws-api/v3`, used verbatim by `ws.user`).
import type { Agent } from 'node:https';
import ccxt from 'ccxt';
import { Spot } from '@binance/spot';
import BinanceModule from 'binance-api-node';
import type { Simulator } from 'spot-sim/fixture';

export type Ccxt = InstanceType<typeof ccxt.binance>;

/** ccxt's binance class on the simulator's `origin` (default: its http:// listener). */
export function ccxtAt(sim: Simulator, origin = sim.urls.http, extra: Record<string, unknown> = {}): Ccxt {
  const exchange = new ccxt.binance({
    apiKey: sim.credentials.apiKey,
    secret: sim.credentials.apiSecret,
    timeout: 4000,
    options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false },
    ...extra,
  });
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [name, url] of Object.entries(api)) {
    if (typeof url === 'string') api[name] = origin + new URL(url).pathname;
  }
  return exchange;
}

/** @binance/spot's REST client on `basePath` (default: the simulator's http:// listener). */
export function spotRestAt(sim: Simulator, basePath = sim.urls.http, httpsAgent?: Agent): Spot {
  return new Spot({
    configurationRestAPI: {
      apiKey: sim.credentials.apiKey,
      apiSecret: sim.credentials.apiSecret,
      basePath,
      timeout: 4000,
      retries: 0,
      ...(httpsAgent ? { httpsAgent } : {}),
    },
  });
}

/** A CommonJS package whose `exports.default` is the factory. */
const BinanceApiNode = BinanceModule.default;
export type ApiNode = ReturnType<typeof BinanceApiNode>;

/** binance-api-node on the simulator's http:// and ws:// listeners. */
export function apiNodeAt(sim: Simulator): ApiNode {
  return BinanceApiNode({
    apiKey: sim.credentials.apiKey,
    apiSecret: sim.credentials.apiSecret,
    httpBase: sim.urls.http,
    wsBase: `${sim.urls.ws}/ws`,
    wsApi: `${sim.urls.ws}/ws-api/v3`,
  });
}

// A session recorded byte for byte for the determinism specs: a market-stream connection and a
// WS API connection (subscribed to the account's user data) whose raw frames are kept, and the
// signed REST requests the session makes with their status and body. At the end a round trip on
// each connection makes sure every frame sent before it has arrived.
import { SpotSimClient, type Simulator } from 'spot-sim/fixture';
import { WebSocket } from 'ws';

export interface Transcript {
  rest: string[];
  market: string[];
  wsApi: string[];
}

/** Resolves when a frame matching `pred` has arrived on `ws` (frames before it are in order). */
export function frameWhere(ws: WebSocket, pred: (text: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no such frame within 5 s')), 5000);
    const on = (data: unknown) => {
      if (!pred(String(data))) return;
      clearTimeout(timer);
      ws.off('message', on);
      resolve();
    };
    ws.on('message', on);
  });
}

/** What a recorded session's steps use. */
export interface Session {
  readonly client: SpotSimClient;
  /** The WS API connection (its frames are recorded). */
  readonly api: WebSocket;
  /** Signs WS API parameters with the simulator's key. */
  sign(params: Record<string, string | number>): Record<string, unknown>;
  /** A signed REST request, recorded as `<status> <body>`; its body. */
  rest(method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string | number>): Promise<{ orderId?: number }>;
}

/** Runs `steps` on a session of `sim` with the market `streams` open, and returns what it recorded. */
export async function recordSession(sim: Simulator, streams: string, steps: (session: Session) => Promise<void>): Promise<Transcript> {
  const out: Transcript = { rest: [], market: [], wsApi: [] };
  const client = new SpotSimClient(sim, { now: () => sim.now() });
  try {
    const market = new WebSocket(`${sim.urls.ws}/stream?streams=${streams}`);
    const api = new WebSocket(`${sim.urls.ws}/ws-api/v3`);
    market.on('message', (data) => out.market.push(String(data)));
    api.on('message', (data) => out.wsApi.push(String(data)));
    await Promise.all([new Promise((r) => market.once('open', r)), new Promise((r) => api.once('open', r))]);
    const wsApi = client.newWsApi();
    const sign = (p: Record<string, string | number>) => wsApi.sign(p);
    api.send(JSON.stringify({ id: 'sub', method: 'userDataStream.subscribe.signature', params: sign({}) }));
    await frameWhere(api, (t) => t.includes('"id":"sub"'));
    const rest: Session['rest'] = async (method, path, params) => {
      const res = await client.rest.request({ method, path: `${path}?${client.rest.sign(params)}`, headers: { 'X-MBX-APIKEY': sim.credentials.apiKey } });
      out.rest.push(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { orderId?: number };
    };
    await steps({ client, api, sign, rest });
    // A control round trip on each connection: everything sent before it has arrived.
    market.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 999 }));
    await frameWhere(market, (t) => t.includes('"id":999'));
    api.send(JSON.stringify({ id: 'end', method: 'ping' }));
    await frameWhere(api, (t) => t.includes('"id":"end"'));
    market.close();
    api.close();
    return out;
  } finally {
    await client.close();
  }
}

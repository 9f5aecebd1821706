// A web page on another loopback port (the app under test, any dev server on the machine) cannot
// drive the control API (docs/control-api.md "Who may call it"), tried in Chromium against every
// state-changing route the server describes (GET /sim/v1/openapi.json, so a new route is tried
// too), on both listeners: the requests a page can send without a CORS preflight (a text/plain
// fetch with the route's JSON arguments, a fetch without a body, form posts, the text/plain one
// shaped into valid JSON) are all answered 403, and a JSON request never
// leaves the browser (its preflight is refused). The exchange's state is the same afterwards;
// the same reset from a local tool does change it, so the comparison can see a change.
import { createServer, type Server } from 'node:http';
import { expect, type Simulator } from 'spot-sim/fixture';
import { withSimConfig } from './support/helpers.ts';

const test = withSimConfig({ sim: { clock: 'manual', start_time_ms: Date.UTC(2026, 0, 15, 12), generator: { enabled: false } } });
test.use({ ignoreHTTPSErrors: true });

interface Attack {
  readonly method: string;
  readonly path: string;
  /** The route's arguments as JSON text ('' when it takes none). */
  readonly body: string;
}

/** Arguments that would act, for the routes that take some; other routes get an empty body. */
function argumentsOf(path: string, orderId: number): Record<string, unknown> | undefined {
  const known: Record<string, Record<string, unknown>> = {
    '/advance-time': { ms: 60_000 },
    '/faults/rules': { on: 'order.place', times: 0, action: { error: -1013 } },
    '/faults/fillOpenOrder': { orderId, qty: '0.001' },
    '/faults/setAckDelayMs': { ms: 500 },
    '/faults/setClockOffsetMs': { ms: 5_000 },
    '/faults/dropWsApiConnections': { includeUserStreams: true },
    '/faults/setRestUnresponsive': { on: true },
    '/faults/setUserStreamMuted': { muted: true },
    '/faults/sendMalformedFrames': { md: true, wsApi: true },
    '/market/place': { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' },
    '/market/cancel': { symbol: 'BTCUSDT', id: 1 },
    '/market/cancelAll': { symbol: 'BTCUSDT' },
    '/market/setMid': { symbol: 'BTCUSDT', price: '61000' },
  };
  if (known[path] !== undefined) return known[path];
  return /^\/faults\/(rejectNextOrders|rateLimitNextRequests|swallowNextWsApiResponses|duplicateNextUserEvents|banNextRequests|failNextAuth)$/.test(path) ? { k: 3 } : undefined;
}

/** Every state-changing route the server describes, with arguments that would act. */
async function attacks(sim: Simulator, ruleId: number, orderId: number): Promise<Attack[]> {
  const doc = (await (await fetch(`${sim.urls.http}/sim/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => m !== 'get')
      .map((m) => {
        const args = argumentsOf(path, orderId);
        return { method: m.toUpperCase(), path: path.replace('{id}', String(ruleId)), body: args === undefined ? '' : JSON.stringify(args) };
      }),
  );
}

/** What a page could change: everything `stats()` counts (but open sockets), rules, clock, orders. */
function stateOf(sim: Simulator): string {
  const { connections: _sockets, ...stats } = sim.stats();
  return JSON.stringify({ stats, rules: sim.faults.rules(), now: sim.now(), orders: sim.openClientOrderIds() });
}

let pageServer: Server;
let pagePort = 0;
test.beforeAll(async () => {
  pageServer = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>another app</title><body></body>'));
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pagePort = (pageServer.address() as { port: number }).port;
});
test.afterAll(() => new Promise<void>((resolve) => pageServer.close(() => resolve())));

// The page: http://localhost:<port> (other foreign origins: src/net/control-access.test.ts).
test('a page on http://localhost:<another port> changes nothing through any state-changing route, on either listener', async ({ page, sim, client, market, faults }) => {
  // Some 240 browser requests and 120 frames: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);
  // A state every route would change: an open order, a resting counterparty order, a rule,
  // the clock moved, counters since the mark.
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '59000' });
  market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
  const rule = faults.use({ on: 'ping', times: 0, action: { delayMs: 1 } });
  sim.advanceTime(5_000);
  const list = await attacks(sim, rule.id, order.orderId);
  expect(list.length).toBeGreaterThanOrEqual(25);
  const before = stateOf(sim);

  const answers: { method: string; url: string; status: number }[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/sim/v1/') && res.request().method() !== 'OPTIONS') answers.push({ method: res.request().method(), url: res.url(), status: res.status() });
  });
  await page.goto(`http://localhost:${pagePort}/`);
  const blocked = await page.evaluate(
    async ({ bases, list }) => {
      /** A form post into a hidden frame, resolved when the frame has the answer. */
      const post = (url: string, enctype: string, fields: [string, string][]) =>
        new Promise<void>((resolve) => {
          const frame = document.createElement('iframe');
          frame.name = `sink${Math.random()}`;
          // Appended first: an empty frame's own load event comes on insertion, not the answer's.
          document.body.append(frame);
          const form = document.createElement('form');
          Object.assign(form, { method: 'POST', action: url, enctype, target: frame.name });
          for (const [name, value] of fields) form.append(Object.assign(document.createElement('input'), { name, value }));
          document.body.append(form);
          const answered = () => {
            frame.remove();
            form.remove();
            resolve();
          };
          frame.addEventListener('load', answered, { once: true });
          form.submit();
        });
      const blocked: string[] = [];
      // Every route at once (each request is refused on its own; the order does not matter).
      const targets = bases.flatMap((base) => list.map((attack) => ({ ...attack, url: `${base}/sim/v1${attack.path}` })));
      await Promise.all(
        targets.map(async ({ method, body, url }) => {
          if (method === 'POST') {
            await fetch(url, { method, mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body }).catch(() => undefined);
            await fetch(url, { method, mode: 'no-cors' }).catch(() => undefined);
            // text/plain sends `name=value`: `{"a":"` = `",<the arguments>}` is the arguments
            // as JSON (the later "a" wins); with no arguments, an empty form is an empty body.
            const first = body === '' ? undefined : Object.keys(JSON.parse(body) as object)[0];
            const shaped: [string, string][] = first === undefined ? [] : [[`{"${first}":"`, `",${body.slice(1)}`]];
            await post(url, 'text/plain', shaped);
            await post(url, 'application/x-www-form-urlencoded', body === '' ? [] : [['json', body]]);
          }
          const json = await fetch(url, { method, headers: { 'Content-Type': 'application/json' }, body: body === '' ? undefined : body }).then(
            () => 'answered',
            () => 'blocked',
          );
          if (json === 'blocked') blocked.push(`${method} ${url}`);
        }),
      );
      return blocked;
    },
    { bases: [sim.urls.http, sim.urls.https], list },
  );

  const posts = list.filter((a) => a.method === 'POST').length;
  // Every JSON request was stopped at its preflight; every simple one reached the server and was refused.
  expect(blocked).toHaveLength(2 * list.length);
  await expect.poll(() => answers.length).toBe(2 * 4 * posts);
  expect(answers.filter((a) => a.status !== 403)).toEqual([]);
  expect(stateOf(sim)).toBe(before);

  // The comparison sees a change: the same reset from a local tool (JSON, no Origin) acts.
  const reset = await fetch(`${sim.urls.http}/sim/v1/reset`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
  expect(reset.status).toBe(200);
  expect(stateOf(sim)).not.toBe(before);
});

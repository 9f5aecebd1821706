// Who may drive the control API (docs/control-api.md "Who may call it"): local tools (curl, the
// fixture, a bot in any language), not web pages. A request whose Host is not a loopback name,
// `localhost` or the bound address (a DNS-rebinding page) and a browser request from any Origin
// but the server's own (a page on another loopback port included) are refused with 403 and a
// JSON body naming why, and change nothing; no wildcard CORS is sent on /sim/v1 (the trading
// API keeps its CORS for trading UIs). Every route, and Chromium: control-api-pages.spec.ts.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { expect } from 'spot-sim/fixture';
import { buy, refusal, withSimConfig } from './support/helpers.ts';
import { LISTENERS } from './support/rest.ts';

interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
}

/** A request with exactly the headers given (Host and Origin included), as a page or curl would send them. */
function raw(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawReply> {
  const target = new URL(path, url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, { method, headers, rejectUnauthorized: false, setHost: !('Host' in headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // asserted as text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const test = withSimConfig({ sim: { generator: { enabled: false } } });
test.beforeEach(({ sim }) => sim.faults.clear());

for (const listener of LISTENERS) {
  test(`a foreign Host (DNS rebinding) is refused with 403 naming it on ${listener}; loopback names and the bound address work`, async ({ sim, client }) => {
    const url = sim.urls[listener];
    const port = new URL(url).port;
    const arm = (host: string) => raw(url, 'POST', '/sim/v1/faults/rejectNextOrders', { Host: host, 'Content-Type': 'application/json' }, '{"k":3}');
    for (const host of [`evil.example:${port}`, 'evil.example', `192.0.2.7:${port}`, `localhost.evil.example:${port}`, '']) {
      const r = await arm(host);
      expect(r.status, host).toBe(403);
      expect(r.body.error.message, host).toMatch(/Host/);
      expect(r.headers['access-control-allow-origin'], host).toBeUndefined();
    }
    // Nothing was armed: an order goes through.
    await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`, '127.0.0.1']) {
      expect((await raw(url, 'GET', '/sim/v1/stats', { Host: host })).status, host).toBe(200);
    }
  });

  test(`a browser request from a foreign Origin is refused with 403 on ${listener} (text/plain POSTs included), pages on other loopback ports too; own origins and curl work`, async ({ sim, client }) => {
    const url = sim.urls[listener];
    // What a page's fetch('http://127.0.0.1:P/sim/v1/reset', {method: 'POST', mode: 'no-cors'}) sends.
    for (const origin of ['https://evil.example', 'http://evil.example:8080', 'null', 'http://192.0.2.7', 'not a url', 'http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080']) {
      const r = await raw(url, 'POST', '/sim/v1/faults/rejectNextOrders', { Origin: origin, 'Content-Type': 'text/plain' }, '{"k":3}');
      expect(r.status, origin).toBe(403);
      expect(r.body.error.message, origin).toMatch(/Origin/);
      expect(r.headers['access-control-allow-origin'], origin).toBeUndefined();
      // The preflight a page's JSON POST would send gets no CORS approval either.
      const preflight = await raw(url, 'OPTIONS', '/sim/v1/reset', { Origin: origin, 'Access-Control-Request-Method': 'POST' });
      expect(preflight.status, origin).toBe(403);
      expect(preflight.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    // The reproduction: a dev server's page resetting the exchange.
    const opened = await client.rest.newOrder(buy('50000'));
    expect(opened.status, 'nothing was armed').toBe('NEW');
    const reset = await raw(url, 'POST', '/sim/v1/reset', { Origin: 'http://localhost:3000', 'Content-Type': 'text/plain' });
    expect(reset.status).toBe(403);
    expect(sim.openClientOrderIds()).toEqual([opened.clientOrderId]);
    // The server's own origins (both listeners, by the bound address or localhost) and a request without Origin (curl, bots).
    const own = [sim.urls.http, `http://localhost:${sim.ports.http}`, sim.urls.https, `https://localhost:${sim.ports.https}`];
    for (const headers of [...own.map((origin) => ({ Origin: origin })), {}] as Record<string, string>[]) {
      const r = await raw(url, 'POST', '/sim/v1/faults/rejectNextOrders', { ...headers, 'Content-Type': 'application/json' }, '{"k":1}');
      expect(r, JSON.stringify(headers)).toMatchObject({ status: 200, body: { result: null } });
      // No wildcard CORS on the control API, whoever asks.
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    // Each of the five armed one rejection (k=1 each time: the last call set it).
    expect(await refusal(client.rest.newOrder(buy('50000')))).toMatchObject({ code: -2010, msg: 'Market is closed.' });
    // The trading API keeps its CORS for trading UIs on other origins.
    const ping = await raw(url, 'GET', '/api/v3/ping', { Origin: 'https://evil.example' });
    expect(ping.status).toBe(200);
    expect(ping.headers['access-control-allow-origin']).toBe('*');
  });
}

const TOKEN = 'c0ntrol-t0ken';
const exposed = withSimConfig({ sim: { generator: { enabled: false }, bind: '0.0.0.0', control_token: TOKEN } });
exposed('on a wildcard bind with a token: any IP literal of the machine is a bound address; a foreign name is still refused', async ({ sim }) => {
  const url = sim.urls.http;
  const port = new URL(url).port;
  const auth = { Authorization: `Bearer ${TOKEN}` };
  expect((await raw(url, 'GET', '/sim/v1/stats', { ...auth, Host: `0.0.0.0:${port}` })).status).toBe(200);
  expect((await raw(url, 'GET', '/sim/v1/stats', { ...auth, Host: `192.0.2.7:${port}` })).status).toBe(200);
  const rebound = await raw(url, 'GET', '/sim/v1/stats', { ...auth, Host: `evil.example:${port}` });
  expect(rebound.status).toBe(403);
  expect(rebound.body.error.message).toMatch(/Host/);
});

// Who may change the simulator through the control API (docs/control-api.md "Who may call it"),
// over every route of the route table, so a route added later is covered without a new test:
// a browser request from any origin but the server's own (a page on another loopback port
// included), and a state-changing request that is not `Content-Type: application/json` (what a
// page can send without a CORS preflight: text/plain, a form, no body), are refused before the
// route touches the simulator. Proven with a handle that records every property a route reads:
// a refused request reads nothing but the listener ports (which the Origin rule needs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { startSimulator, type Simulator } from '../index.ts';
import { createControlRoutes, type ControlHost } from './control-api.ts';
import { CONTROL_ROUTES } from './control-routes.ts';
import { CONTROL_PATH } from './rest-server.ts';

let sim: Simulator;
/** What the routes read from the handle since the last `touched.length = 0`. */
const touched: string[] = [];
/** The properties the access rule itself reads. */
const ACCESS_READS = new Set(['ports']);

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
});
after(() => sim.stop());

/** The simulator behind a handle that records what is read from it. */
function recording(target: Simulator): ControlHost {
  return new Proxy(target, {
    get(t, name, receiver) {
      if (typeof name === 'string' && !ACCESS_READS.has(name)) touched.push(name);
      const value = Reflect.get(t, name, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  }) as unknown as ControlHost;
}

/** A server with only the control API over the recording handle (the body read as the REST server reads it). */
async function controlServer(token?: string): Promise<{ server: Server; port: number }> {
  const routes = createControlRoutes(() => recording(sim), { enabled: true, bind: '127.0.0.1', token });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (!routes(req, res, (req.url ?? '/').split('?')[0]!, Buffer.concat(chunks).toString('utf8'))) res.writeHead(599).end();
      } catch {
        // a route that reached the simulator through the recorder and failed there: passed the gate
        if (!res.headersSent) res.writeHead(598).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // Content-Length given: node sends a DELETE's body neither chunked nor sized otherwise.
    const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = request({ host: '127.0.0.1', port, method, path, headers: { Host: `127.0.0.1:${port}`, ...length, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each route's path with a rule id where it takes one. */
const ROUTES = CONTROL_ROUTES.map((r) => ({ method: r.method, path: `${CONTROL_PATH}${r.path.replace('{id}', '1')}`, changesState: r.method !== 'GET' }));

/** What a page can send without a preflight (and a no-body POST), or a JSON look-alike: never application/json. */
const NOT_JSON: readonly (string | undefined)[] = [
  undefined,
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/jsonp',
  'application/json-patch+json',
  'text/json',
  'application/json, text/plain',
];

test('every route refuses a browser request from another origin with 403, reading nothing', async () => {
  const { server, port } = await controlServer();
  const { http, https } = sim.ports;
  const foreign = [
    'http://localhost:3000',
    'http://127.0.0.1:5173',
    'http://[::1]:8080',
    `http://127.0.0.1:${http + 1}`,
    `https://127.0.0.1:${http}`,
    `http://127.0.0.1:${https}`,
    `http://localhost.evil.example:${http}`,
    `http://127.0.0.1:${http}.evil.example`,
    'https://evil.example',
    'null',
    'not a url',
    `HTTP://127.0.0.1:${http}/`,
  ];
  try {
    for (const route of ROUTES) {
      for (const origin of foreign) {
        touched.length = 0;
        const status = await send(port, route.method, route.path, { Origin: origin, 'Content-Type': 'application/json' }, route.changesState ? '{}' : undefined);
        assert.equal(status, 403, `${route.method} ${route.path} from ${origin}`);
        assert.deepEqual(touched, [], `${route.method} ${route.path} from ${origin} read the simulator`);
      }
    }
  } finally {
    server.close();
  }
});

test('every state-changing route refuses a request that is not application/json with 415, reading nothing', async () => {
  const { server, port } = await controlServer();
  try {
    const changing = ROUTES.filter((r) => r.changesState);
    assert.ok(changing.length >= 20, 'the table has its state-changing routes');
    for (const route of changing) {
      for (const type of NOT_JSON) {
        touched.length = 0;
        const status = await send(port, route.method, route.path, type === undefined ? {} : { 'Content-Type': type }, type === undefined ? undefined : '{}');
        assert.equal(status, 415, `${route.method} ${route.path} as ${type ?? 'no body'}`);
        assert.deepEqual(touched, [], `${route.method} ${route.path} as ${type ?? 'no body'} read the simulator`);
      }
    }
  } finally {
    server.close();
  }
});

test("every route passes the gate from the server's own origins, and from a tool that sends no Origin, as application/json", async () => {
  const { server, port } = await controlServer();
  const { http, https } = sim.ports;
  const own = [undefined, `http://127.0.0.1:${http}`, `http://localhost:${http}`, `https://127.0.0.1:${https}`, `https://localhost:${https}`];
  try {
    for (const route of ROUTES) {
      for (const origin of own) {
        for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
          const status = await send(port, route.method, route.path, { ...(origin === undefined ? {} : { Origin: origin }), 'Content-Type': type }, route.changesState ? '{}' : undefined);
          assert.ok(![401, 403, 415].includes(status), `${route.method} ${route.path} from ${origin ?? 'a tool'} as ${type}: ${status}`);
        }
      }
      // A GET needs no Content-Type.
      if (!route.changesState) assert.ok(![403, 415].includes(await send(port, 'GET', route.path, {})), route.path);
    }
  } finally {
    server.close();
    sim.reset();
  }
});

test('with control_token, the bearer token stands in for application/json; without it nothing passes', async () => {
  const token = 'c0ntrol-t0ken';
  const { server, port } = await controlServer(token);
  try {
    for (const route of ROUTES.filter((r) => r.changesState)) {
      touched.length = 0;
      assert.equal(await send(port, route.method, route.path, { 'Content-Type': 'text/plain' }, '{}'), 401, `${route.method} ${route.path} without the token`);
      assert.deepEqual(touched, []);
      const status = await send(port, route.method, route.path, { 'Content-Type': 'text/plain', Authorization: `Bearer ${token}` }, '{}');
      assert.ok(![401, 403, 415].includes(status), `${route.method} ${route.path} with the token: ${status}`);
      // The token does not make a foreign page an own origin.
      assert.equal(await send(port, route.method, route.path, { Origin: 'http://localhost:3000', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, '{}'), 403);
    }
  } finally {
    server.close();
    sim.reset();
  }
});

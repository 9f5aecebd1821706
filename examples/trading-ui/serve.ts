// A tiny static server for the trading UI (node:http / node:https, no deps). The page then
// lives on its own origin, so its REST calls to the simulator are real cross-origin (CORS)
// requests, as they are for a user's app. Used by e2e/ui and from the command line:
//
//   npx tsx examples/trading-ui/serve.ts [--port 8080] [--sim http://127.0.0.1:9080]

import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FILES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/style.css': 'style.css',
};
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

export interface TradingUiServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash) */
  readonly url: string;
  close(): Promise<void>;
}

export interface TradingUiServerOptions {
  /** 0 (default) = any free port. */
  readonly port?: number;
  readonly host?: string;
  /** PEM certificate and key: serve over https. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
}

export async function serveTradingUi(options: TradingUiServerOptions = {}): Promise<TradingUiServer> {
  const host = options.host ?? '127.0.0.1';
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = FILES[path];
    if (req.method !== 'GET' || file === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    readFile(fileURLToPath(new URL(file, import.meta.url))).then(
      (body) => res.writeHead(200, { 'Content-Type': TYPES[file.split('.').pop()!]!, 'Cache-Control': 'no-store' }).end(body),
      () => res.writeHead(500).end(),
    );
  };
  const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
  };
  const sim = arg('sim', 'http://127.0.0.1:9080').replace(/\/+$/, '');
  const ui = await serveTradingUi({ port: Number(arg('port', '8080')) });
  console.log(`trading UI: ${ui.url}/?rest=${sim}&ws=${sim.replace(/^http/, 'ws')}&symbol=BTCUSDT`);
}

// The two listeners (spec 1.2): plain HTTP on `port` and TLS on `tls_port`, same handler,
// bound to `bind`. Port 0 picks a free port. A port in use is an error that names it.

import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ListenerPair {
  readonly http: Server;
  readonly https: Server;
  readonly httpPort: number;
  readonly httpsPort: number;
}

export class ListenError extends Error {}

export async function openListeners(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  bind: string,
  port: number,
  tlsPort: number,
  tls: { cert: string; key: string },
): Promise<ListenerPair> {
  const http = createHttpServer({ keepAliveTimeout: 65_000 }, handler);
  const https = createHttpsServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 65_000 }, handler);
  try {
    const httpPort = await listen(http, bind, port, 'port');
    const httpsPort = await listen(https, bind, tlsPort, 'tls_port');
    return { http, https, httpPort, httpsPort };
  } catch (error) {
    await closeServer(http);
    await closeServer(https);
    throw error;
  }
}

function listen(server: Server, host: string, port: number, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'is already in use' : `cannot be opened (${error.code ?? error.message})`;
      reject(new ListenError(`${key} ${port} on ${host} ${why}`));
    };
    server.once('error', onError);
    server.listen({ port, host }, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops accepting, lets in-flight responses finish, then closes every connection. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 200).unref();
  });
}

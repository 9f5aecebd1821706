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

/**
 * Bounds on a connection that never finishes its request (bench/soak/soak.ts): node's defaults
 * hold a socket that sends nothing or trickles its headers for 60 s (checked every 30 s, so up
 * to 90 s), a request body sent a byte at a time for 300 s, and a TLS handshake that never
 * completes for 120 s. A local simulator's clients send a request in one go, so these are
 * tighter; idle keep-alive connections keep `keepAliveTimeout`, upgraded WebSockets are not
 * affected (the heartbeat bounds those), and a response the server holds back (the REST
 * unresponsive fault) is not either: `requestTimeout` ends once the request is received.
 */
const SERVER_TIMEOUTS = {
  /** From the first byte (or the connection, for one that sends nothing) to the end of the headers. */
  headersTimeout: 10_000,
  /** The whole request, headers and body (bodies are at most 64 KiB). */
  requestTimeout: 30_000,
  /** How often node checks the two above (default 30 s). */
  connectionsCheckingInterval: 1_000,
  keepAliveTimeout: 65_000,
} as const;
/** A TLS handshake not completed within this is dropped (node's default: 120 s). */
const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

export async function openListeners(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  bind: string,
  port: number,
  tlsPort: number,
  tls: { cert: string; key: string },
): Promise<ListenerPair> {
  const http = createHttpServer({ ...SERVER_TIMEOUTS }, handler);
  const https = createHttpsServer({ cert: tls.cert, key: tls.key, handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS, ...SERVER_TIMEOUTS }, handler);
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

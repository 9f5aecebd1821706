// The client's WebSocket connections: opened the same way (loopback TLS without verification,
// no compression) and closed the same way.

import { WebSocket } from 'ws';

/** How long an opening handshake may take before the socket errors (its own deadline: a test timeout of 0 never hangs on it). */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

export function openSocket(url: string): WebSocket {
  return new WebSocket(url, { rejectUnauthorized: false, perMessageDeflate: false, handshakeTimeout: HANDSHAKE_TIMEOUT_MS });
}

/** Resolves once the socket is closed (a connection still opening is dropped). */
export function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
    else ws.close();
  });
}

// The client's WebSocket connections: opened the same way (loopback TLS without verification,
// no compression) and closed the same way.

import { WebSocket } from 'ws';

export function openSocket(url: string): WebSocket {
  return new WebSocket(url, { rejectUnauthorized: false, perMessageDeflate: false });
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

// A small keep-alive HTTP(S) requester over node:http/https for the typed client. The
// simulator's TLS certificate is self-signed for loopback, so HTTPS does not verify it.

import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs?: number;
}

/** No answer within the request's timeout (the transport's own; the REST client turns it into SpotSimTimeoutError). */
export class HttpTimeout extends Error {
  override name = 'HttpTimeout';
  constructor(readonly timeoutMs: number, what: string) {
    super(`timeout after ${timeoutMs} ms: ${what}`);
  }
}

export class HttpTransport {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false });

  send(req: RawRequest): Promise<RawResponse> {
    const url = new URL(req.url);
    const tls = url.protocol === 'https:';
    const make = tls ? httpsRequest : httpRequest;
    const headers = withContentLength(req.headers, req.body);
    return new Promise((resolve, reject) => {
      const outgoing = make(
        url,
        { method: req.method, headers, agent: tls ? this.https : this.http, timeout: req.timeoutMs ?? 10_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new HttpTimeout(req.timeoutMs ?? 10_000, `${req.method} ${url.pathname}`)));
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/**
 * Node frames a body by itself only for methods that usually carry one: a DELETE (or GET) body
 * would go out with neither Content-Length nor chunking, and the server would read it as the
 * next request. A body therefore always gets its length, unless the caller set one.
 */
function withContentLength(headers: Readonly<Record<string, string>> | undefined, body: string | undefined): Record<string, string> {
  const out = { ...headers };
  if (body !== undefined && !Object.keys(out).some((k) => k.toLowerCase() === 'content-length')) out['Content-Length'] = String(Buffer.byteLength(body));
  return out;
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

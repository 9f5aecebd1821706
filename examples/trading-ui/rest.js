// The trading UI's REST client: calls to the exchange's REST API, the signed ones with
// `timestamp` and an HMAC-SHA256 `signature` of the exact query or body, made in the browser
// with WebCrypto, and the page's clock offset to the exchange's (`GET /api/v3/time`).

/** A refused or failed call: the HTTP status and the exchange's `code` (null when it sent none). */
export class ApiError extends Error {
  constructor(status, code, msg) {
    super(msg);
    this.status = status;
    this.code = code;
  }
}

/** A failure as the page shows it: the exchange's message and code. */
export function describe(error) {
  return error instanceof ApiError && error.code !== null ? `${error.message} (code ${error.code})` : error.message;
}

/**
 * @param {{ rest: string, apiKey: string, apiSecret: string }} cfg  the REST base URL and credentials
 */
export function createRest(cfg) {
  let hmacKey = null;
  let timeOffsetMs = 0;

  /** The hex HMAC-SHA256 of `payload` under the API secret. */
  async function sign(payload) {
    if (!globalThis.crypto?.subtle) throw new ApiError(0, null, 'WebCrypto is unavailable: open this page over https or from localhost / 127.0.0.1.');
    hmacKey ??= await crypto.subtle.importKey('raw', new TextEncoder().encode(cfg.apiSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const mac = await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(payload));
    return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
  }

  /** The exchange's time as the page estimates it (for `timestamp`). */
  const now = () => Date.now() + timeOffsetMs;

  /** One REST call; signed ones carry timestamp + signature (hex HMAC of the exact query/body). */
  async function api(method, path, params = {}, signed = false) {
    const qs = new URLSearchParams(params);
    const headers = {};
    if (signed) {
      qs.set('timestamp', String(now()));
      qs.set('signature', await sign(qs.toString()));
      headers['X-MBX-APIKEY'] = cfg.apiKey;
    }
    let url = `${cfg.rest}${path}`;
    let body;
    if (method === 'GET' || method === 'DELETE') {
      if (qs.size > 0) url += `?${qs}`;
    } else {
      body = qs.toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    let res;
    try {
      res = await fetch(url, { method, headers, body });
    } catch (error) {
      throw new ApiError(0, null, `network error: ${error.message}`);
    }
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(res.status, null, `HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
    if (!res.ok) throw new ApiError(res.status, json.code ?? null, json.msg ?? `HTTP ${res.status}`);
    return json;
  }

  /** Sets the clock offset from the exchange's time, halfway through the request. */
  async function syncClock() {
    const t0 = Date.now();
    const { serverTime } = await api('GET', '/api/v3/time');
    timeOffsetMs = Math.round(serverTime - (t0 + Date.now()) / 2);
  }

  return { api, sign, now, syncClock };
}

// WS API request frames for the WebSocket bench's load process (bench/ws-client.ts): the
// Signer writes signed order.place / order.cancel frames (HMAC-SHA256 or, after session.logon,
// unsigned), and the setup requests (logon, user-data subscription) wait for their replies.

import { createHmac, createPrivateKey, createSecretKey, sign, type KeyObject } from 'node:crypto';
import type WebSocket from 'ws';
import { replyId, replyOk } from './load-common.ts';

export type AuthMode = 'echo' | 'hmac' | 'logon';

export interface Auth {
  readonly mode: AuthMode;
  readonly apiKey: string;
  /** HMAC secret (mode hmac). */
  readonly apiSecret: string;
  /** PKCS#8 PEM of the Ed25519 private key (mode logon). */
  readonly privateKeyPem: string;
}


const SYMBOL = 'BTCUSDT';
/** LIMIT BUY 0.001 BTCUSDT @ 50000 GTC: rests (far below the 60000 start mid), locks 50 USDT. */
const ORDER_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['symbol', SYMBOL],
  ['side', 'BUY'],
  ['type', 'LIMIT'],
  ['timeInForce', 'GTC'],
  ['quantity', '0.001'],
  ['price', '50000'],
];

// ------------------------------------------------------------------ requests

/** Builds signed request frames; `{"id":<id>,"method":...}` so the reply's id is at byte 6. */
export class Signer {
  private readonly ed25519: KeyObject | null;
  private readonly hmacKey: KeyObject | null;
  /** After session.logon: requests carry only their timestamp (spec 5.3). */
  session = false;

  constructor(private readonly auth: Auth) {
    this.ed25519 = auth.mode === 'logon' ? createPrivateKey(auth.privateKeyPem) : null;
    this.hmacKey = auth.apiSecret === '' ? null : createSecretKey(Buffer.from(auth.apiSecret, 'utf8'));
  }

  /** A request frame: with `signed`, apiKey + signature over the sorted `k=v&...` payload. */
  frame(id: number, method: string, fields: ReadonlyArray<readonly [string, string]>, signed: boolean): string {
    const params: Array<readonly [string, string]> = [...fields, ['timestamp', String(Date.now())]];
    if (signed) {
      params.push(['apiKey', this.auth.apiKey]);
      params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const payload = params.map(([k, v]) => `${k}=${v}`).join('&');
      params.push(['signature', this.sign(payload)]);
    }
    let body = '';
    for (const [k, v] of params) body += `${body === '' ? '' : ','}"${k}":${JSON.stringify(v)}`;
    return `{"id":${id},"method":"${method}","params":{${body}}}`;
  }

  // The two hot frames, written out (the same text `frame` builds, checked once in `selfCheck`):
  // sorted payload apiKey, orderId|price.., symbol.., timestamp, type; params in that order.

  place(id: number): string {
    const ts = Date.now();
    if (this.session) {
      return `{"id":${id},"method":"order.place","params":{"symbol":"${SYMBOL}","side":"BUY","type":"LIMIT","timeInForce":"GTC","quantity":"0.001","price":"50000","timestamp":"${ts}"}}`;
    }
    const k = this.auth.apiKey;
    const payload = `apiKey=${k}&price=50000&quantity=0.001&side=BUY&symbol=${SYMBOL}&timeInForce=GTC&timestamp=${ts}&type=LIMIT`;
    return `{"id":${id},"method":"order.place","params":{"apiKey":"${k}","price":"50000","quantity":"0.001","side":"BUY","symbol":"${SYMBOL}","timeInForce":"GTC","timestamp":"${ts}","type":"LIMIT","signature":"${this.sign(payload)}"}}`;
  }

  cancel(id: number, orderId: string): string {
    const ts = Date.now();
    if (this.session) return `{"id":${id},"method":"order.cancel","params":{"symbol":"${SYMBOL}","orderId":"${orderId}","timestamp":"${ts}"}}`;
    const k = this.auth.apiKey;
    const payload = `apiKey=${k}&orderId=${orderId}&symbol=${SYMBOL}&timestamp=${ts}`;
    return `{"id":${id},"method":"order.cancel","params":{"apiKey":"${k}","orderId":"${orderId}","symbol":"${SYMBOL}","timestamp":"${ts}","signature":"${this.sign(payload)}"}}`;
  }

  private sign(payload: string): string {
    return this.ed25519 !== null
      ? sign(null, Buffer.from(payload), this.ed25519).toString('base64')
      : createHmac('sha256', this.hmacKey!).update(payload).digest('hex');
  }

  /** The written-out frames equal what the generic builder makes (same millisecond retried). */
  selfCheck(): void {
    for (let attempt = 0; attempt < 5; attempt++) {
      const a = [this.place(7), this.cancel(8, '42')];
      const b = [this.frame(7, 'order.place', ORDER_FIELDS, !this.session), this.frame(8, 'order.cancel', [['symbol', SYMBOL], ['orderId', '42']], !this.session)];
      const norm = (f: string) => JSON.stringify(Object.entries((JSON.parse(f) as { params: Record<string, string> }).params).sort());
      if (a.every((f, i) => norm(f) === norm(b[i]!))) return;
    }
    throw new Error('the written-out order frames differ from the generic ones');
  }
}

/** Sends one frame and resolves with the reply carrying its id (setup requests only). */
function request(ws: WebSocket, id: number, frame: string): Promise<Buffer> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => {
      ws.off('message', onMessage);
      rej(new Error(`no reply to request ${id} within 5 s`));
    }, 5000);
    const onMessage = (data: Buffer) => {
      if (replyId(data) !== id) return;
      clearTimeout(timer);
      ws.off('message', onMessage);
      if (!replyOk(data)) rej(new Error(`request ${id} refused: ${data.toString('utf8')}`));
      else res(data);
    };
    ws.on('message', onMessage);
    ws.send(frame);
  });
}

export async function setUp(ws: WebSocket, signer: Signer, auth: Auth, subscribe: boolean): Promise<void> {
  if (auth.mode === 'logon') {
    await request(ws, 900_000_001, signer.frame(900_000_001, 'session.logon', [], true));
    signer.session = true;
  }
  if (subscribe) {
    // Signed (Ed25519 or HMAC) even on a logged-on session: the .signature form authenticates itself.
    const was = signer.session;
    signer.session = false;
    await request(ws, 900_000_002, signer.frame(900_000_002, 'userDataStream.subscribe.signature', [], true));
    signer.session = was;
  }
}

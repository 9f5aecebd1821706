// Authentication of signed requests (spec 5, binance-facts §1.3-1.4): the API key, then
// recvWindow, timestamp and signature, with each row's exact code and message. HMAC is checked
// in constant time; an Ed25519 public key is parsed once. Secrets never reach an error or a log.

import { createHmac, createPublicKey, createSecretKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { apiError, type ApiError } from '../core/errors.ts';
import type { Params } from './params.ts';
import { sentTimeUs } from './time-unit.ts';

export const DEFAULT_RECV_WINDOW_MS = 5000;
/** A timestamp this far ahead or more is refused (spec 5.4). */
const AHEAD_LIMIT_MS = 1000;
const RECV_WINDOW_RE = /^[0-9]{1,10}(\.[0-9]{1,3})?$/;

export interface Credentials {
  readonly apiKey: string;
  readonly apiSecret: string;
  /** PEM text of the account's Ed25519 public key, when the account key is Ed25519. */
  readonly ed25519PublicKeyPem?: string;
}

/** A recvWindow (`^[0-9]{1,10}(\.[0-9]{1,3})?$`, ms) in whole microseconds, without float rounding. */
function microseconds(ms: string): number {
  const [whole, fraction = ''] = ms.split('.');
  return Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
}

export class Authenticator {
  private readonly apiKey: Buffer;
  /** The HMAC secret as a key object, made once (a string key is re-encoded on every request). */
  private readonly hmacKey: KeyObject;
  readonly ed25519Key: KeyObject | null;

  constructor(
    credentials: Credentials,
    private readonly maxRecvWindowMs: number,
  ) {
    this.apiKey = Buffer.from(credentials.apiKey);
    this.hmacKey = createSecretKey(Buffer.from(credentials.apiSecret, 'utf8'));
    this.ed25519Key = credentials.ed25519PublicKeyPem ? createPublicKey(credentials.ed25519PublicKeyPem) : null;
    if (this.ed25519Key !== null && this.ed25519Key.asymmetricKeyType !== 'ed25519') {
      throw new Error('account.ed25519_public_key_file does not hold an Ed25519 public key');
    }
  }

  get isEd25519(): boolean {
    return this.ed25519Key !== null;
  }

  /** -2014 without a key, -2015 for a key that is not the account's (spec 5.4). */
  checkApiKey(key: string | undefined): ApiError | null {
    if (key === undefined || key === '') return apiError('BAD_API_KEY_FORMAT');
    const given = Buffer.from(key);
    if (given.length !== this.apiKey.length || !timingSafeEqual(given, this.apiKey)) return apiError('REJECTED_API_KEY');
    return null;
  }

  /**
   * timestamp / recvWindow / signature of a signed request. With `signatureOptional` (an
   * Ed25519 WS API session after logon) a missing signature is fine, a present one is checked.
   */
  checkSigned(params: Params, now: number, signatureOptional = false): ApiError | null {
    const timing = this.checkTimestamp(params, now);
    if (timing !== null) return timing;
    const signature = params.get('signature');
    if (signature === undefined) return signatureOptional ? null : apiError('MANDATORY_PARAM', 'signature');
    const ok =
      this.verifySignature(params.signedPayload, signature) ||
      (params.altSignedPayload !== null && this.verifySignature(params.altSignedPayload, signature));
    return ok ? null : apiError('INVALID_SIGNATURE');
  }

  checkTimestamp(params: Params, now: number): ApiError | null {
    const rawTimestamp = params.get('timestamp');
    if (rawTimestamp === undefined) return apiError('MANDATORY_PARAM', 'timestamp');
    if (!/^[0-9]{1,19}$/.test(rawTimestamp)) return apiError('ILLEGAL_CHARS', 'timestamp', '^[0-9]{1,20}$');
    // Compared in whole microseconds (rest-api.md: timestamps in ms or µs, recvWindow with up
    // to three decimals "so that microseconds may be specified"): nothing is rounded away.
    const timestampUs = sentTimeUs(Number(rawTimestamp));
    let recvWindowUs = DEFAULT_RECV_WINDOW_MS * 1000;
    const rawWindow = params.get('recvWindow');
    if (rawWindow !== undefined) {
      if (!RECV_WINDOW_RE.test(rawWindow)) return apiError('ILLEGAL_CHARS', 'recvWindow', '^[0-9]{1,10}(\\.[0-9]{1,3})?$');
      if (Number(rawWindow) > this.maxRecvWindowMs) return apiError('BAD_RECV_WINDOW', this.maxRecvWindowMs);
      recvWindowUs = microseconds(rawWindow);
    }
    const nowUs = Math.round(now * 1000);
    if (timestampUs >= nowUs + AHEAD_LIMIT_MS * 1000) return apiError('TIMESTAMP_AHEAD');
    if (nowUs - timestampUs > recvWindowUs) return apiError('TIMESTAMP_OUTSIDE_RECV_WINDOW');
    return null;
  }

  private verifySignature(payload: string, signature: string): boolean {
    if (this.ed25519Key !== null) {
      const raw = Buffer.from(signature, 'base64');
      if (raw.length !== 64) return false;
      return verify(null, Buffer.from(payload), this.ed25519Key, raw);
    }
    // HMAC-SHA256, lowercase or uppercase hex (binance-facts §1.3: case-insensitive).
    if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
    const expected = createHmac('sha256', this.hmacKey).update(payload).digest();
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
  }
}

// Client order ids the typed client generates (API.md 5.1): a placement always carries a
// `newClientOrderId`, so when its reply times out the caller can look the order up by the id in
// the SpotSimTimeoutError instead of placing it twice. The form is the reference's generated
// one (22 characters of [A-Za-z0-9], inside ^[a-zA-Z0-9-_]{1,36}$).

import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function newClientOrderId(): string {
  const bytes = randomBytes(22);
  let id = '';
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return id;
}

/** The params with a generated `newClientOrderId` when the caller gave none. */
export function withClientOrderId<P extends { readonly newClientOrderId?: string }>(params: P): P & { newClientOrderId: string } {
  return params.newClientOrderId === undefined ? { ...params, newClientOrderId: newClientOrderId() } : (params as P & { newClientOrderId: string });
}

// What a WS API connection offers the session and user-data methods of the endpoint table
// (spec 4.3, binance-facts §6): the transport implements it per connection, the handlers in
// endpoints.ts stay transport-neutral.

/** The result of `session.logon` / `session.status` / `session.logout` (binance-facts §6). */
export interface SessionStatus {
  readonly apiKey: string | null;
  readonly authorizedSince: number | null;
  readonly connectedSince: number;
  readonly returnRateLimits: boolean;
  readonly serverTime: number;
  /** true = at least one active user-data subscription on the connection. */
  readonly userDataStream: boolean;
}

export interface ConnectionControl {
  readonly loggedOn: boolean;
  logon(apiKey: string, now: number): SessionStatus;
  logout(now: number): SessionStatus;
  status(now: number): SessionStatus;
  /** A new user-data subscription; -2035 when the account already has one on the connection. */
  subscribe(viaSession: boolean, now: number): number;
  /** Ends one subscription (-2036 when it is not active) or, without an id, all of them. */
  unsubscribe(subscriptionId: number | undefined, now: number): void;
  subscriptionIds(): number[];
}

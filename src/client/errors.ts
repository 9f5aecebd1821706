// The one error the typed client throws for a refusal (API.md section 4): HTTP or WS API
// status, the reference error code and message, `data` when the exchange sent one
// (cancelReplace, retryAfter) and, for REST, the response headers.

export class SpotSimError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly msg: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly data?: unknown,
  ) {
    super(`${status} ${code}: ${msg}`);
    this.name = 'SpotSimError';
  }
}

// An example bot: places an order over the WS API with its own newClientOrderId and, when the
// reply does not come in time, does NOT place it again blindly. The outcome is unknown, so it
// asks the exchange about that client order id first (order.status by origClientOrderId): found
// -> that is its order (reconciled); unknown to the exchange (-2013) -> the order never arrived,
// place it again with the same id. The exchange is the source of truth, the reply a hint.
//
// (Caveat for real use: an order that was already filled or cancelled is forgotten by the
// query, -2013 as well, so a bot also checks its user data before placing again.)

export interface PlaceParams {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';
  readonly timeInForce?: 'GTC' | 'IOC' | 'FOK';
  readonly quantity: string;
  readonly price?: string;
  readonly newClientOrderId: string;
}

export interface KnownOrder {
  readonly symbol: string;
  readonly orderId: number;
  readonly clientOrderId: string;
  readonly status: string;
}

/** What the bot needs of a WS API client (the spot-sim client's WsApiClient fits). */
export interface OrderApi {
  /** RESULT: the reply carries the order's status (an ACK would not). */
  placeOrder(params: PlaceParams & { readonly newOrderRespType: 'RESULT' }): Promise<KnownOrder>;
  orderStatus(params: { symbol: string; origClientOrderId: string }): Promise<KnownOrder>;
}

export interface Placed {
  readonly order: KnownOrder;
  /** 'reply': the place reply came; 'reconciled': found by its client id after a timeout. */
  readonly via: 'reply' | 'reconciled';
  /** order.place requests sent. */
  readonly placements: number;
}

const TIMED_OUT = Symbol('timed out');

export class ReconcilingPlacer {
  /** What the bot did, in order (for its owner's logs and for tests). */
  readonly journal: string[] = [];

  constructor(
    private readonly api: OrderApi,
    private readonly options: { readonly replyTimeoutMs: number; readonly maxPlacements?: number },
  ) {}

  async place(params: PlaceParams): Promise<Placed> {
    const id = params.newClientOrderId;
    const maxPlacements = this.options.maxPlacements ?? 2;
    for (let placements = 1; ; placements++) {
      this.journal.push(`place ${id}`);
      const reply = await this.within(this.api.placeOrder({ ...params, newOrderRespType: 'RESULT' }), this.options.replyTimeoutMs);
      if (reply !== TIMED_OUT) {
        this.journal.push(`reply: order ${reply.orderId} ${reply.status}`);
        return { order: reply, via: 'reply', placements };
      }
      this.journal.push(`no reply within ${this.options.replyTimeoutMs} ms`);
      const found = await this.lookup(params.symbol, id);
      if (found !== null) {
        this.journal.push(`found ${id}: order ${found.orderId} ${found.status}`);
        return { order: found, via: 'reconciled', placements };
      }
      this.journal.push(`${id} is unknown to the exchange`);
      if (placements >= maxPlacements) throw new Error(`order ${id}: no reply after ${placements} placements`);
    }
  }

  private async lookup(symbol: string, origClientOrderId: string): Promise<KnownOrder | null> {
    try {
      return await this.api.orderStatus({ symbol, origClientOrderId });
    } catch (error) {
      if ((error as { code?: unknown }).code === -2013) return null;
      throw error;
    }
  }

  /** The promise's value, or TIMED_OUT; a late rejection of an abandoned call is ignored. */
  private async within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
    promise.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));
    try {
      return await Promise.race([promise, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}

// An example bot: buys dips and sells the bounce, with a protective exit. At each step it reads
// the last price and the last 15 one-minute candles; flat, when the price is `dip` below the
// candles' high it bids one tick under the last price; holding, it offers `take` above its
// entry, and when the price falls `stop` below its entry it cancels the offer and sells at the
// market. A bid that is not filled within `patience` steps is cancelled.
//
// It knows nothing of spot-sim: it speaks the reference's REST API through the `MarketApi` it is
// given (spot-sim's typed REST client fits). Against a replayed day (docs/replay.md) it meets a
// real market, and every run on the same day is the same.

export interface MarketApi {
  tickerPrice(p: { symbol: string }): Promise<{ price: string }>;
  klines(p: { symbol: string; interval: '1m'; limit: number }): Promise<(string | number)[][]>;
  newOrder(p: { symbol: string; side: 'BUY' | 'SELL'; type: 'LIMIT'; timeInForce: 'GTC'; price: string; quantity: string } | { symbol: string; side: 'SELL'; type: 'MARKET'; quantity: string }): Promise<{ orderId: number; status: string }>;
  getOrder(p: { symbol: string; orderId: number }): Promise<{ status: string; executedQty: string; price: string }>;
  cancelOrder(p: { symbol: string; orderId: number }): Promise<unknown>;
}

export interface DipBuyerOptions {
  readonly symbol: string;
  readonly quantity: string;
  /** Fractions of a price: 0.001 is 0.1 %. */
  readonly dip: number;
  readonly take: number;
  readonly stop: number;
  readonly patience: number;
}

export class DipBuyer {
  /** What it did, in order. */
  readonly journal: string[] = [];
  private bid: { orderId: number; steps: number } | null = null;
  private holding: { entry: number; offerId: number } | null = null;

  constructor(
    private readonly api: MarketApi,
    private readonly o: DipBuyerOptions,
  ) {}

  async step(): Promise<void> {
    const { symbol } = this.o;
    const last = Number((await this.api.tickerPrice({ symbol })).price);
    if (this.bid !== null) await this.followBid();
    if (this.holding !== null) return this.guard(last);
    if (this.bid !== null) return;
    const candles = await this.api.klines({ symbol, interval: '1m', limit: 15 });
    const high = Math.max(...candles.map((k) => Number(k[2])));
    if (last > high * (1 - this.o.dip)) return;
    const price = (last - 0.01).toFixed(2);
    const order = await this.api.newOrder({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: this.o.quantity });
    this.bid = { orderId: order.orderId, steps: 0 };
    this.journal.push(`bid ${price} (high ${high.toFixed(2)})`);
  }

  private async followBid(): Promise<void> {
    const { symbol } = this.o;
    const bid = this.bid!;
    const order = await this.api.getOrder({ symbol, orderId: bid.orderId });
    if (order.status === 'FILLED') {
      this.bid = null;
      const entry = Number(order.price);
      const offer = (entry * (1 + this.o.take)).toFixed(2);
      const placed = await this.api.newOrder({ symbol, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: offer, quantity: this.o.quantity });
      this.holding = { entry, offerId: placed.orderId };
      this.journal.push(`bought ${order.price}, offer ${offer}`);
    } else if (++bid.steps >= this.o.patience) {
      await this.api.cancelOrder({ symbol, orderId: bid.orderId });
      this.bid = null;
      this.journal.push(`bid withdrawn`);
    }
  }

  private async guard(last: number): Promise<void> {
    const { symbol } = this.o;
    const held = this.holding!;
    const offer = await this.api.getOrder({ symbol, orderId: held.offerId });
    if (offer.status === 'FILLED') {
      this.holding = null;
      this.journal.push(`sold ${offer.price}`);
    } else if (last <= held.entry * (1 - this.o.stop)) {
      await this.api.cancelOrder({ symbol, orderId: held.offerId });
      await this.api.newOrder({ symbol, side: 'SELL', type: 'MARKET', quantity: this.o.quantity });
      this.holding = null;
      this.journal.push(`stopped out at ${last.toFixed(2)}`);
    }
  }
}

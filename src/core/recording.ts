// A recorded day of the reference's public trades (API.md section 12), as the replay
// counterparty reads it: compact columns, one index per recorded row, no object per print, on
// the instrument's grids. Built once per start from the file or its cache (src/replay/) and
// shared read-only by every core a reset creates.

export interface Recording {
  readonly symbol: string;
  readonly count: number;
  /** Recorded time of each row in microseconds (ms files x 1000), non-decreasing. */
  readonly timeUs: Float64Array;
  /** Price in ticks of the instrument. */
  readonly price: Float64Array;
  /** Quantity in lots of the instrument. */
  readonly qty: Float64Array;
  /** 1 when the buyer was the maker (the row's isBuyerMaker). */
  readonly buyerIsMaker: Uint8Array;
  /**
   * 1 when the row starts a new aggregate trade: every row of an aggTrades file; in a trades file
   * a row whose time, price and taker side differ from the previous row's.
   */
  readonly newAggregate: Uint8Array;
  /**
   * Rows [0, loadedRows) hold their values. A recording read from the cache holds the rows up to
   * a little past `from` at start and fills the rest as the replay goes on: before the clock
   * moves, the simulator loads the rows that move may print (Exchange.recordedTimeNeeded), so the
   * core never reads a row at or past this. A parsed recording holds every row (count).
   */
  readonly loadedRows: number;
}

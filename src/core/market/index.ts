// The market room: public market data per symbol, derived from the public trades the book hands
// it (MarketData implements the book's PublicTrades) and never from the account: the trade tape
// in compact columns (trade-tape.ts), minute bars with prefix sums (minute-bars.ts), klines of
// every interval and time zone (kline-time.ts), aggregate trades, rolling tickers and avgPrice
// (market-data.ts), and the history before the start, synthetic, from kline files
// (market-history.ts) or a replayed symbol's recorded rows before `from` (replay-history.ts).
// Everything outside the room imports this file.

export { MarketData, SymbolMarketData, NO_HISTORY, type AggTrade, type Candle, type TradeRow } from './market-data.ts';
export { buildHistory, type CsvCandles, type KlineRow, type MarketHistory } from './market-history.ts';
export { firstLiveRow } from './replay-history.ts';
export type { BarFold } from './minute-bars.ts';
export * from './kline-time.ts';

// The book room: every symbol's two sides of price levels (book.ts), every resting order's packed
// record (order-store.ts, over paged-table.ts), which orders rest and whose they are
// (resting-orders.ts: the counterparty's pick lists, the account's slots), price-time matching
// with per-symbol trade and update ids (matcher.ts) and the depth aggregation the depth stream
// publishes (depth-aggregator.ts). It knows no account: an account order is an Order carrying an
// opaque record (`Order<A>`), its fills go out through FillSink and public trades through
// PublicTrades, both implemented by the rooms that care. Everything outside the room imports
// this file, never the room's other files (src/architecture.test.ts).

export { Order, Level, BookSide, SymbolBook, type BookStore } from './book.ts';
export { Matcher, crosses, type FillSink, type PublicTrades, type TradeWatch } from './matcher.ts';
export { RestingOrders, PickList, scriptedPick } from './resting-orders.ts';
export { DepthAggregator } from './depth-aggregator.ts';
export { NONE, OrderStore } from './order-store.ts';
export { SyntheticLevels } from './synthetic-levels.ts';

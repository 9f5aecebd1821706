// The account room: the one account's commands and its side of every fill (account-desk.ts:
// checks, holds, placement through the book's Matcher, settlement, execution reports, balance
// events), its balances (ledger.ts), its trades (trade-log.ts), its open orders' records and ids
// (account-order.ts, open-orders.ts), the placement filter that reads the book
// (market-notional.ts), and its ended orders with their queries (order-history.ts over
// kept-orders.ts and client-id-table.ts; order-history-query.ts for allOrders). It sees books only
// through the book room's interface (book/index.ts). Everything outside the room imports this file.

export { AccountDesk } from './account-desk.ts';
export { AccountOrder, type AccountBookOrder } from './account-order.ts';
export { OpenOrders, findAccountOrder } from './open-orders.ts';
export { marketNotionalError } from './market-notional.ts';
export { Ledger } from './ledger.ts';
export { TradeLog, MY_TRADES_DEFAULT_LIMIT, MY_TRADES_MAX_LIMIT, type TradeQuery } from './trade-log.ts';
export { OrderHistory } from './order-history.ts';
export { StopBook } from './stops.ts';
export { OrderList, OrderLists } from './order-lists.ts';
export { needOf, largerNeed, type Need } from './holds.ts';
export { isConditional, type OrderPhase } from './account-order.ts';
export { allOrders, ALL_ORDERS_DEFAULT_LIMIT, ALL_ORDERS_MAX_LIMIT, type OrderHistoryQuery, type AccountOrdersView } from './order-history-query.ts';

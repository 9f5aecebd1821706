// What the endpoint table (src/api/endpoints.ts) does not say in words: a one-line summary and
// the parameters of each operation, keyed by the table's id. The reference generator fails
// when an id of the table has no entry here or an entry names no id, so the two cannot drift.
// Parameters: `name` required, `name?` optional; `a | b` one of them. Weight: only where it
// depends on the parameters (otherwise the table's weight function is asked).

export interface EndpointNote {
  readonly summary: string;
  readonly params: string;
  readonly weight?: string;
}

const SIGNED = 'timestamp, signature, recvWindow?';
const ORDER_REF = 'orderId | origClientOrderId';

export const ENDPOINT_NOTES: Readonly<Record<string, EndpointNote>> = {
  ping: { summary: 'Test connectivity.', params: '' },
  time: { summary: 'Server time (the simulator clock: wall or manual, plus the clock offset).', params: '' },
  exchangeInfo: { summary: 'Trading rules, rate limits and symbols with their filters.', params: 'symbol? | symbols?' },
  depth: { summary: 'Order book snapshot with `lastUpdateId`.', params: 'symbol, limit? (default 100, max 5000)', weight: '5 (limit <= 100), 25 (<= 500), 50 (<= 1000), 250' },
  'ticker.book': { summary: 'Best bid and ask of one, several or all symbols.', params: 'symbol? | symbols?', weight: '2 with symbol, 4 otherwise' },
  'trades.recent': { summary: 'The most recent public trades, oldest first.', params: 'symbol, limit? (default 500, max 1000)' },
  'trades.historical': { summary: 'Public trades from `fromId` (default: the most recent), oldest first.', params: 'symbol, fromId?, limit? (default 500, max 1000)' },
  'trades.aggregate': { summary: 'Aggregate trades (one taker order, one price, one time), oldest first.', params: 'symbol, fromId? | (startTime?, endTime?), limit? (default 500, max 1000)' },
  klines: { summary: 'Candles of an interval (1s .. 1M) in a time zone, oldest first; the last one is still open.', params: 'symbol, interval, startTime?, endTime?, timeZone?, limit? (default 500, max 1000)' },
  uiKlines: { summary: 'The same candles as klines.', params: 'symbol, interval, startTime?, endTime?, timeZone?, limit? (default 500, max 1000)' },
  avgPrice: { summary: 'Volume-weighted price of the last 5 minutes.', params: 'symbol' },
  'ticker.24hr': { summary: '24-hour rolling statistics of one, several or all symbols.', params: 'symbol? | symbols?, type? (FULL | MINI)', weight: '2 (symbol, or 1-20 symbols), 40 (21-100), 80 (more, or all)' },
  'ticker.price': { summary: 'Last trade price of one, several or all symbols.', params: 'symbol? | symbols?', weight: '2 with symbol, 4 otherwise' },
  ticker: { summary: 'Rolling-window statistics opening on a minute (windowSize 1m..59m, 1h..23h, 1d..7d).', params: 'symbol | symbols, windowSize? (default 1d), type? (FULL | MINI)', weight: '4 per symbol, 200 above 50 symbols' },
  'ticker.tradingDay': { summary: 'Statistics of the current trading day (UTC or timeZone).', params: 'symbol | symbols, timeZone?, type? (FULL | MINI)', weight: '4 per symbol, 200 above 50 symbols' },
  'account.status': { summary: 'Balances and account flags.', params: `omitZeroBalances?, ${SIGNED}` },
  'account.commission': { summary: 'Commission rates of a symbol.', params: `symbol, ${SIGNED}` },
  'userDataStream.start': { summary: 'Create (or extend) the listen key for `/ws/<listenKey>`.', params: '' },
  'userDataStream.ping': { summary: 'Keep a listen key alive.', params: 'listenKey' },
  'userDataStream.stop': { summary: 'Close a listen key (its streams close).', params: 'listenKey' },
  'account.rateLimits.orders': { summary: 'Current order counts against the ORDERS limits.', params: SIGNED },
  'session.logon': { summary: 'Authenticate the WS API connection with an Ed25519 signature.', params: `apiKey, ${SIGNED}` },
  'session.status': { summary: 'Whether the connection is authenticated, and as which key.', params: '' },
  'session.logout': { summary: 'Forget the connection\'s authentication.', params: '' },
  'session.subscriptions': { summary: 'The connection\'s user-data subscriptions.', params: '' },
  'userDataStream.subscribe': { summary: 'Receive the account\'s user-data events on this connection (after session.logon).', params: '' },
  'userDataStream.subscribe.signature': { summary: 'Receive the account\'s user-data events on this connection, authenticated by signature (HMAC accounts).', params: `apiKey, ${SIGNED}` },
  'userDataStream.unsubscribe': { summary: 'Stop one (or every) user-data subscription of this connection.', params: 'subscriptionId?' },
  'order.place': {
    summary: 'Place an order (LIMIT, LIMIT_MAKER, MARKET; with `order_types = "reference"` also STOP_LOSS, STOP_LOSS_LIMIT, TAKE_PROFIT, TAKE_PROFIT_LIMIT, icebergs and quoteOrderQty MARKET orders, docs/orders.md).',
    params: `symbol, side, type, timeInForce?, quantity? | quoteOrderQty?, price?, stopPrice?, trailingDelta?, icebergQty?, newClientOrderId?, newOrderRespType?, selfTradePreventionMode?, strategyId?, strategyType? (>= 1000000), ${SIGNED}`,
  },
  'order.test': { summary: 'Validate an order without placing it; with computeCommissionRates, its commission.', params: `the order.place parameters, computeCommissionRates?, ${SIGNED}`, weight: '1, or 20 with computeCommissionRates=true' },
  'order.status': { summary: 'One of the account\'s orders.', params: `symbol, ${ORDER_REF}, ${SIGNED}` },
  'order.cancel': { summary: 'Cancel an open order.', params: `symbol, ${ORDER_REF}, newClientOrderId?, cancelRestrictions? (ONLY_NEW, ONLY_PARTIALLY_FILLED), ${SIGNED}` },
  'order.cancelReplace': {
    summary: 'Cancel an order and place a new one in one request.',
    params: `symbol, cancelReplaceMode, cancelOrderId | cancelOrigClientOrderId, cancelNewClientOrderId?, cancelRestrictions?, orderRateLimitExceededMode? (DO_NOTHING, CANCEL_ONLY), the order.place parameters, ${SIGNED}`,
  },
  'order.amend.keepPriority': { summary: 'Reduce an open order\'s quantity, keeping its place in the queue.', params: `symbol, ${ORDER_REF}, newQty, newClientOrderId?, ${SIGNED}` },
  'openOrders.status': { summary: 'The account\'s open orders, of one symbol or all.', params: `symbol?, ${SIGNED}`, weight: '6 with symbol, 80 without' },
  'openOrders.cancelAll': { summary: 'Cancel every open order of a symbol.', params: `symbol, ${SIGNED}` },
  myTrades: { summary: 'The account\'s trades of a symbol.', params: `symbol, orderId?, startTime?, endTime?, fromId?, limit? (default 500, max 1000), ${SIGNED}`, weight: '20, or 5 with orderId' },
  allOrders: { summary: 'The account\'s orders of a symbol, oldest first: open ones, and ended ones with `ended_orders = "keep"` (docs/order-history.md).', params: `symbol, orderId?, startTime?, endTime? (at most 24 h apart), limit? (default 500, max 1000), ${SIGNED}` },
  // Order lists: only with `[sim] order_types = "reference"` (docs/orders.md).
  'orderList.place': {
    summary: 'Deprecated OCO: a LIMIT_MAKER at `price` and a STOP_LOSS (STOP_LOSS_LIMIT with stopLimitPrice) at `stopPrice`; reports FULL by default.',
    params: `symbol, side, quantity, price, stopPrice, stopLimitPrice?, stopLimitTimeInForce?, trailingDelta?, listClientOrderId?, limitClientOrderId?, limitIcebergQty?, stopClientOrderId?, stopIcebergQty?, newOrderRespType?, ${SIGNED}`,
  },
  'orderList.place.oco': { summary: 'An OCO pair: an above and a below order; reports FULL by default.', params: `symbol, side, quantity, above{Type,Price?,StopPrice?,TrailingDelta?,TimeInForce?,IcebergQty?,ClientOrderId?}, below{...the same}, listClientOrderId?, newOrderRespType?, selfTradePreventionMode?, ${SIGNED}` },
  'orderList.place.oto': {
    summary: 'An OTO: a working LIMIT / LIMIT_MAKER order and a pending order placed once it has filled; reports FULL by default.',
    params: `symbol, working{Type,Side,Price,Quantity,TimeInForce?,IcebergQty?,ClientOrderId?}, pending{Type,Side,Quantity,Price?,StopPrice?,TrailingDelta?,TimeInForce?,IcebergQty?,ClientOrderId?}, listClientOrderId?, newOrderRespType?, ${SIGNED}`,
  },
  'orderList.place.otoco': {
    summary: 'An OTOCO: a working order and a pending OCO pair placed once it has filled; reports FULL by default.',
    params: `symbol, working{...} as OTO, pendingSide, pendingQuantity, pendingAbove{Type,Price?,StopPrice?,TrailingDelta?,TimeInForce?,IcebergQty?,ClientOrderId?}, pendingBelow{...}, listClientOrderId?, newOrderRespType?, ${SIGNED}`,
  },
  'orderList.cancel': { summary: 'Cancel every order of a list.', params: `symbol, orderListId | listClientOrderId, newClientOrderId?, ${SIGNED}` },
  'orderList.status': { summary: 'One order list (ended ones with `ended_orders = "keep"`).', params: `orderListId | origClientOrderId, ${SIGNED}` },
  'openOrderLists.status': { summary: 'The open order lists of every symbol, oldest first.', params: SIGNED },
  allOrderLists: { summary: 'Open and kept order lists, oldest first.', params: `fromId? | (startTime?, endTime?: at most 24 h apart), limit? (default 500, max 1000), ${SIGNED}` },
};

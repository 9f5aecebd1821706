// What the order specs expect of order replies: the reference field sets, in order, of the three
// response kinds and of query, cancel and amend replies (binance-facts §3.6-§3.11), and the ME
// errors of an order that is gone or would take (binance-facts §2.2, §2.3).
export const ACK = ['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime'];
export const RESULT = [...ACK, 'price', 'origQty', 'executedQty', 'origQuoteOrderQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'workingTime', 'selfTradePreventionMode'];
export const FULL = [...RESULT, 'fills'];
export const QUERY = ['symbol', 'orderId', 'orderListId', 'clientOrderId', 'price', 'origQty', 'executedQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'stopPrice', 'icebergQty', 'time', 'updateTime', 'isWorking', 'workingTime', 'origQuoteOrderQty', 'selfTradePreventionMode'];
export const CANCEL = ['symbol', 'origClientOrderId', 'orderId', 'orderListId', 'clientOrderId', 'transactTime', 'price', 'origQty', 'executedQty', 'origQuoteOrderQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'selfTradePreventionMode'];
export const AMENDED = ['symbol', 'orderId', 'orderListId', 'origClientOrderId', 'clientOrderId', 'price', 'qty', 'executedQty', 'preventedQty', 'quoteOrderQty', 'cumulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'workingTime', 'selfTradePreventionMode'];

export const UNKNOWN_ORDER = { code: -2011, msg: 'Unknown order sent.' };
export const NO_SUCH_ORDER = { code: -2013, msg: 'Order does not exist.' };
export const WOULD_TAKE = { code: -2010, msg: 'Order would immediately match and take.' };

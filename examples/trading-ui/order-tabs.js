// The order panel's tabs beside Limit / Market: Stop-Limit and OCO, placed as the reference
// exchange's own order form places them.
// - Stop-Limit (side, stop price, limit price, quantity): one order that waits until the last
//   price reaches the stop, then works as a LIMIT order. Its type follows from where the stop is
//   against the last price (rest-api.md, "Trigger order price rules": STOP_LOSS BUY and
//   TAKE_PROFIT SELL trigger above the market, STOP_LOSS SELL and TAKE_PROFIT BUY below): a BUY
//   with its stop above the last price is a STOP_LOSS_LIMIT, below a TAKE_PROFIT_LIMIT; the
//   other way round for a SELL.
// - OCO (side, quantity, limit price, stop price, stop-limit price): POST /api/v3/orderList/oco,
//   a LIMIT_MAKER at the limit price and a STOP_LOSS_LIMIT; a SELL takes its profit above the
//   market and stops below it (LIMIT_MAKER above, STOP_LOSS_LIMIT below), a BUY the reverse.

const DECIMAL = /^\d+(\.\d+)?$/;

/** Compares two plain decimal strings exactly (no float rounding): <0, 0, >0. */
function compareDecimals(a, b) {
  const [aInt, aFrac = ''] = a.split('.');
  const [bInt, bFrac = ''] = b.split('.');
  const x = aInt.replace(/^0+/, '');
  const y = bInt.replace(/^0+/, '');
  if (x.length !== y.length) return x.length - y.length;
  const width = Math.max(aFrac.length, bFrac.length);
  const left = x + aFrac.padEnd(width, '0');
  const right = y + bFrac.padEnd(width, '0');
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The type of a stop-limit order with this stop price, given the last price. */
export function stopLimitType(side, stopPrice, lastPrice) {
  const above = compareDecimals(stopPrice, lastPrice) > 0;
  if (side === 'BUY') return above ? 'STOP_LOSS_LIMIT' : 'TAKE_PROFIT_LIMIT';
  return above ? 'TAKE_PROFIT_LIMIT' : 'STOP_LOSS_LIMIT';
}

/** The parameters of an OCO's two legs: the take-profit LIMIT_MAKER and the STOP_LOSS_LIMIT. */
export function ocoLegs(side, limitPrice, stopPrice, stopLimitPrice) {
  const maker = { Type: 'LIMIT_MAKER', Price: limitPrice };
  const stop = { Type: 'STOP_LOSS_LIMIT', StopPrice: stopPrice, Price: stopLimitPrice, TimeInForce: 'GTC' };
  const [above, below] = side === 'SELL' ? [maker, stop] : [stop, maker];
  const params = {};
  for (const [key, value] of Object.entries(above)) params[`above${key}`] = value;
  for (const [key, value] of Object.entries(below)) params[`below${key}`] = value;
  return params;
}

/**
 * @param {object} deps
 * @param {(method: string, path: string, params?: object, signed?: boolean) => Promise<any>} deps.api  signed REST
 * @param {string} deps.symbol
 * @param {(v: string) => string} deps.px  price as shown
 * @param {{ upsertReply(order: object): void, upsertListReply(list: object): void }} deps.openOrders
 * @param {(text: string) => void} deps.showResult
 * @param {(text: string) => void} deps.showError
 * @param {(error: Error) => string} deps.describe
 */
export function createOrderTabs({ api, symbol, px, openOrders, showResult, showError, describe }) {
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  const field = (data, name) => String(data.get(name) ?? '').trim();

  function select(tab) {
    for (const other of document.querySelectorAll('[data-testid="order-tabs"] [role="tab"]')) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
    }
  }

  /** Runs one placement with its button disabled; a refusal shows the exchange's message. */
  async function submitting(button, place) {
    button.disabled = true;
    $('order-result').textContent = 'placing…';
    $('order-error').hidden = true;
    try {
      await place();
    } catch (error) {
      $('order-result').textContent = '';
      showError(`Order rejected: ${describe(error)}`);
    } finally {
      button.disabled = false;
    }
  }

  async function placeStopLimit(event) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const side = field(data, 'side');
    const stopPrice = field(data, 'stopPrice');
    if (!DECIMAL.test(stopPrice)) {
      showError('Stop price: enter a number such as 59000.00');
      return;
    }
    await submitting($('stop-submit'), async () => {
      const { price: lastPrice } = await api('GET', '/api/v3/ticker/price', { symbol });
      const type = stopLimitType(side, stopPrice, lastPrice);
      const order = await api('POST', '/api/v3/order', {
        symbol, side, type, timeInForce: 'GTC', quantity: field(data, 'quantity'), price: field(data, 'price'), stopPrice, newOrderRespType: 'RESULT',
      }, true);
      showResult(`Order ${order.orderId} ${order.status} · ${type}, stop ${px(stopPrice)} against last price ${px(lastPrice)}`);
      openOrders.upsertReply(order);
    });
  }

  async function placeOco(event) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const side = field(data, 'side');
    await submitting($('oco-submit'), async () => {
      const list = await api('POST', '/api/v3/orderList/oco', {
        symbol, side, quantity: field(data, 'quantity'),
        ...ocoLegs(side, field(data, 'price'), field(data, 'stopPrice'), field(data, 'stopLimitPrice')),
        newOrderRespType: 'RESULT',
      }, true);
      showResult(`OCO ${list.orderListId} ${list.listOrderStatus} · orders ${list.orders.map((o) => o.orderId).join(', ')}`);
      openOrders.upsertListReply(list);
    });
  }

  /** A tab whose order type the symbol does not offer (exchangeInfo) says so and places nothing. */
  function offer(testid, offered, why) {
    $(`${testid}-submit`).disabled = !offered;
    const note = $(`${testid}-unavailable`);
    note.textContent = offered ? '' : why;
    note.hidden = offered;
  }

  for (const tab of document.querySelectorAll('[data-testid="order-tabs"] [role="tab"]')) tab.addEventListener('click', () => select(tab));
  $('stop-form').addEventListener('submit', placeStopLimit);
  $('oco-form').addEventListener('submit', placeOco);

  return {
    /** The symbol's entry of GET /api/v3/exchangeInfo: which of the tabs it offers. */
    setSymbolInfo(info) {
      const types = new Set(info.orderTypes ?? []);
      offer('stop', types.has('STOP_LOSS_LIMIT') && types.has('TAKE_PROFIT_LIMIT'), `${symbol} does not offer stop-limit orders.`);
      offer('oco', info.ocoAllowed === true && types.has('STOP_LOSS_LIMIT') && types.has('LIMIT_MAKER'), `${symbol} does not offer OCO orders.`);
    },
  };
}

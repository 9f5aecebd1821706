// The trading UI's Open orders panel: the account's open orders of the symbol with their working
// state, kept from GET /api/v3/openOrders (at start and after every user-stream reconnect), the
// replies of the page's own requests, and the user data stream's `executionReport` and
// `listStatus` events.
//
// Working state, as the reference exchange reports it: a stop or take-profit order waits off the
// book (`isWorking` false, `workingTime` -1, executionReport `w: false`) until the last price
// reaches its `stopPrice`; then one more executionReport with `w: true` says it works (as a
// LIMIT order for the *_LIMIT types). An order of a list (OCO, OTO) carries its `orderListId`
// (executionReport `g`), and the list's own state comes from `listStatus` (`L`).

const TERMINAL = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH', 'REJECTED']);
const CONDITIONAL = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);

/**
 * When a conditional order triggers, in the reference's rules ("Trigger order price rules"):
 * STOP_LOSS BUY and TAKE_PROFIT SELL at a last price at or above the stop, the others at or below.
 */
function triggersAtOrAbove(type, side) {
  const stopLoss = type.startsWith('STOP_LOSS');
  return (stopLoss && side === 'BUY') || (!stopLoss && side === 'SELL');
}

/**
 * @param {object} deps
 * @param {(method: string, path: string, params?: object, signed?: boolean) => Promise<any>} deps.api  signed REST
 * @param {string} deps.symbol
 * @param {(v: string) => string} deps.px  price as shown
 * @param {(v: string) => string} deps.qty  quantity as shown
 * @param {(tag: string, attrs?: object, ...children: any[]) => HTMLElement} deps.el
 * @param {(text: string) => void} deps.showResult
 * @param {(text: string) => void} deps.showError
 * @param {(error: Error) => string} deps.describe
 */
export function createOpenOrders({ api, symbol, px, qty, el, showResult, showError, describe }) {
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  /** orderId -> order as shown; ids that reached a final status are never shown again. */
  const orders = new Map();
  const finished = new Set();
  /** orderListId -> { contingencyType, listOrderStatus }, from list replies and listStatus. */
  const lists = new Map();

  /** Merges what is known of an order (a REST answer or an executionReport) and redraws. */
  function upsert(order) {
    if (order.symbol !== symbol) return;
    if (TERMINAL.has(order.status)) {
      finished.add(order.orderId);
      orders.delete(order.orderId);
    } else if (!finished.has(order.orderId)) {
      const known = orders.get(order.orderId);
      const merged = { ...known, ...order };
      // A triggered order never waits again: a reply that arrives after its trigger event is older.
      if (known?.isWorking) merged.isWorking = true;
      orders.set(order.orderId, merged);
    }
    render();
  }

  /**
   * An order as a REST answer shows it: GET /api/v3/order and openOrders have `isWorking`; the
   * RESULT and FULL replies of a placement only `workingTime` (-1 while the order waits).
   */
  function upsertReply(order) {
    const isWorking = order.isWorking ?? (order.workingTime === undefined ? undefined : order.workingTime !== -1);
    upsert(isWorking === undefined ? order : { ...order, isWorking });
  }

  function setList(orderListId, contingencyType, listOrderStatus) {
    lists.set(orderListId, { contingencyType, listOrderStatus });
    render();
  }

  function workingState(o) {
    if (o.isWorking === false) return CONDITIONAL.has(o.type) ? 'Waiting' : 'Pending'; // pending: an OTO's second order
    return CONDITIONAL.has(o.type) ? 'Triggered' : 'Working';
  }

  function triggerCondition(o) {
    if (!CONDITIONAL.has(o.type)) return '';
    const trailing = o.trailingDelta ? ` trailing ${o.trailingDelta} bps` : '';
    if (o.stopPrice === undefined || Number(o.stopPrice) === 0) return trailing.trim();
    return `${triggersAtOrAbove(o.type, o.side) ? '≥' : '≤'} ${px(o.stopPrice)}${trailing}`;
  }

  function listLabel(o) {
    if (o.orderListId === undefined || o.orderListId < 0) return '';
    const list = lists.get(o.orderListId);
    return list ? `${list.contingencyType} ${o.orderListId} · ${list.listOrderStatus}` : `list ${o.orderListId}`;
  }

  function render() {
    const rows = [...orders.values()].sort((a, b) => b.orderId - a.orderId).map((o) => {
      const button = el('button', { type: 'button', testid: 'cancel-order' }, 'Cancel');
      button.addEventListener('click', () => cancelOrder(o.orderId, button));
      const state = workingState(o);
      return el(
        'tr',
        { testid: 'open-order', 'data-order-id': String(o.orderId), 'data-state': state.toLowerCase() },
        el('td', { testid: 'open-order-id' }, String(o.orderId)),
        el('td', { class: o.side === 'BUY' ? 'buy' : 'sell' }, o.side),
        el('td', { testid: 'open-order-type' }, o.type ?? ''),
        el('td', {}, o.type === 'STOP_LOSS' || o.type === 'TAKE_PROFIT' ? 'market' : px(o.price)),
        el('td', {}, qty(o.origQty)),
        el('td', { testid: 'open-order-filled' }, qty(o.executedQty)),
        el('td', { testid: 'open-order-status' }, o.status),
        el('td', { testid: 'open-order-state', class: `state-${state.toLowerCase()}` }, state),
        el('td', { testid: 'open-order-trigger' }, triggerCondition(o)),
        el('td', { testid: 'open-order-list' }, listLabel(o)),
        el('td', {}, button),
      );
    });
    $('open-orders').replaceChildren(...rows);
    $('no-open-orders').hidden = rows.length > 0;
  }

  async function refresh() {
    const known = [...orders.keys()]; // orders placed while the request runs are kept
    try {
      const open = await api('GET', '/api/v3/openOrders', { symbol }, true);
      const ids = new Set(open.map((o) => o.orderId));
      for (const id of known) if (!ids.has(id)) orders.delete(id);
      for (const o of open) upsertReply(o);
      render();
      // Lists the page has not seen (placed elsewhere, or before a reload): their type and state.
      if (open.some((o) => o.orderListId >= 0 && !lists.has(o.orderListId))) {
        for (const list of await api('GET', '/api/v3/openOrderList', {}, true)) setList(list.orderListId, list.contingencyType, list.listOrderStatus);
      }
    } catch (error) {
      showError(`Could not load open orders: ${describe(error)}`);
    }
  }

  async function cancelOrder(orderId, button) {
    button.disabled = true;
    try {
      const order = await api('DELETE', '/api/v3/order', { symbol, orderId }, true);
      showResult(`Order ${order.orderId} ${order.status}`);
      upsertReply(order);
    } catch (error) {
      button.disabled = false;
      showError(`Cancel failed: ${describe(error)}`);
    }
  }

  return {
    refresh,
    render,
    /** A placement's reply (RESULT or FULL). */
    upsertReply,
    /** An order list's reply (orderList/oco, ...): the list's state and each order's report. */
    upsertListReply(list) {
      setList(list.orderListId, list.contingencyType, list.listOrderStatus);
      for (const report of list.orderReports ?? []) upsertReply(report);
    },
    /** executionReport: the order's state as the exchange reports it. */
    onExecutionReport(e) {
      upsert({
        symbol: e.s, orderId: e.i, orderListId: e.g, side: e.S, type: e.o, price: e.p, origQty: e.q, executedQty: e.z,
        status: e.X, stopPrice: e.P, trailingDelta: e.d, isWorking: e.w,
      });
    },
    /** listStatus: the list's state (EXECUTING, ALL_DONE, REJECT), shown on its orders' rows. */
    onListStatus(e) {
      if (e.s === symbol) setList(e.g, e.c, e.L);
    },
  };
}

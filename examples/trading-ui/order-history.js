// The Order history panel: the account's recent orders of the symbol, open and ended, from
// GET /api/v3/allOrders (weight 20), newest first, refreshed when the user data stream reports
// a change. On the reference exchange ended orders stay listed; a simulator needs
// `[sim.account] ended_orders = "keep"` for that (this example's spot-sim.toml sets it),
// otherwise the list holds the open orders only.

const LIMIT = 50;

/**
 * @param {object} deps
 * @param {(method: string, path: string, params?: object, signed?: boolean) => Promise<any>} deps.api  signed REST
 * @param {string} deps.symbol
 * @param {(v: string) => string} deps.px  price as shown
 * @param {(v: string) => string} deps.qty  quantity as shown
 * @param {(tag: string, attrs?: object, ...children: any[]) => HTMLElement} deps.el
 * @param {(ms: number) => string} deps.clock
 */
export function createOrderHistory({ api, symbol, px, qty, el, clock }) {
  const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
  let running = null;
  let again = false;

  function render(orders) {
    const rows = [...orders].reverse().map((o) =>
      el(
        'tr',
        { testid: 'history-order', 'data-order-id': String(o.orderId), 'data-status': o.status },
        el('td', {}, clock(o.updateTime).slice(0, 8)),
        el('td', {}, String(o.orderId)),
        el('td', { class: o.side === 'BUY' ? 'buy' : 'sell' }, o.side),
        el('td', { testid: 'history-order-type' }, o.type),
        el('td', {}, o.type === 'MARKET' ? 'market' : px(o.price)),
        el('td', {}, qty(o.origQty)),
        el('td', { testid: 'history-order-filled' }, qty(o.executedQty)),
        el('td', { testid: 'history-order-status', class: `status-${o.status.toLowerCase()}` }, o.status),
      ),
    );
    $('order-history').replaceChildren(...rows);
    $('order-history-count').textContent = String(rows.length);
    $('no-order-history').hidden = rows.length > 0;
  }

  async function load() {
    try {
      render(await api('GET', '/api/v3/allOrders', { symbol, limit: LIMIT }, true));
      $('order-history-error').hidden = true;
    } catch (error) {
      const node = $('order-history-error');
      node.textContent = `Could not load the order history: ${error.message}${error.code ? ` (code ${error.code})` : ''}`;
      node.hidden = false;
    }
  }

  /** One request at a time; changes during it cause one more when it ends. */
  function refresh() {
    if (running) {
      again = true;
      return running;
    }
    running = load().finally(() => {
      running = null;
      if (again) {
        again = false;
        refresh();
      }
    });
    return running;
  }

  return {
    refresh,
    /** An executionReport: the list follows every change of the symbol's orders (bursts coalesce). */
    onExecutionReport(e) {
      if (e.s === symbol) refresh();
    },
  };
}

// The core's invariants (ARCHITECTURE "validate the book's internal state after every test"):
// levels sorted and consistent with their orders, the book uncrossed after matching, balances
// non-negative, locks equal to what open orders hold, fee reserves equal to what open BUYs keep
// (their open lots' worst-case commission) and within free, every commission at 8 decimals and never
// other than its rate (rounded up: fee reserves make it always payable, issue 18), and every asset conserved against the trade log.
// Issue 33: the orders open off the book (waiting stops, PENDING_NEW orders) hold what their
// phase needs (account/holds.ts), an OCO pair holds the larger of its legs' needs, the stop book
// holds exactly the waiting orders in sound heaps, and nothing is left due between commands.
// Returns the violations found (empty = healthy).

import { NONE, scriptedPick, type BookSide } from './book/index.ts';
import { largerNeed, needOf, type AccountBookOrder, type Need } from './account/index.ts';
import type { Instrument } from './markets.ts';
import type { CoreState } from './state.ts';

type Totals = Map<string, bigint>;
const add = (totals: Totals, asset: string, v: bigint) => totals.set(asset, (totals.get(asset) ?? 0n) + v);
const NOTHING: Need = { lock: 0n, reserve: 0n };

export function invariantViolations(s: CoreState): string[] {
  const out: string[] = [];
  let bookOrders = 0;
  let counterparty = 0;
  const lockedByAsset: Totals = new Map();
  const reservedByAsset: Totals = new Map();
  const maxFee = s.markets.makerCentiBps > s.markets.takerCentiBps ? s.markets.makerCentiBps : s.markets.takerCentiBps;
  const paired = checkLists(s, maxFee, lockedByAsset, reservedByAsset, out);
  /** What an open order must hold: its phase's need, nothing while an OCO pair holds for it. */
  const holdOf = (inst: Instrument, o: AccountBookOrder): Need => (paired.has(o) ? NOTHING : needOf(inst, o.account!, o.remaining, maxFee));
  const checkHold = (inst: Instrument, o: AccountBookOrder) => {
    const acct = o.account!;
    const want = holdOf(inst, o);
    // Spec 2.4 and issue 18: the notional (BUY) or base quantity (SELL), and the worst-case commission of every open lot of a BUY.
    if (acct.locked !== want.lock) out.push(`order ${o.id}: locks ${acct.locked}, should lock ${want.lock}`);
    if (acct.feeReserve !== want.reserve) out.push(`order ${o.id}: reserves ${acct.feeReserve}, should reserve ${want.reserve}`);
    add(lockedByAsset, o.side === 'BUY' ? inst.quote : inst.base, acct.locked);
    add(reservedByAsset, inst.quote, acct.feeReserve);
    if (acct.executedQty + acct.preventedQty + o.remaining !== acct.origQty) out.push(`order ${o.id}: quantities do not add up`);
  };
  for (const inst of s.markets.instruments) {
    const book = s.books[inst.index]!;
    for (const side of [book.bids, book.asks]) {
      bookOrders += checkSide(inst, side, s, checkHold, out);
    }
    checkOffBook(s, inst, checkHold, out);
    const bid = book.bids.best();
    const ask = book.asks.best();
    if (bid && ask && bid.price >= ask.price) out.push(`${inst.symbol}: book crossed ${bid.price} >= ${ask.price}`);
    const accountOpen = [...s.clientIds[inst.index]!.values()];
    if (accountOpen.length !== inst.accountOpenOrders) out.push(`${inst.symbol}: open order count ${inst.accountOpenOrders} != ${accountOpen.length}`);
    let icebergs = 0;
    for (const [cid, o] of s.clientIds[inst.index]!) {
      const onBook = o.slot !== NONE && s.orders.account(o.id) === o;
      const offBook = o.slot === NONE && s.openOrders.offBook.get(o.id) === o;
      if (o.account?.clientOrderId !== cid || !(onBook || offBook)) out.push(`${inst.symbol}: client id ${cid} maps to a stale order`);
      if (o.account?.icebergQty !== 0) icebergs++;
    }
    if (icebergs !== s.openOrders.icebergs[inst.index]) out.push(`${inst.symbol}: ${s.openOrders.icebergs[inst.index]} icebergs counted, ${icebergs} open`);
    for (const [list, pickOf] of [[s.counterpartyResting, (i: number) => i], [s.scriptedResting, scriptedPick]] as const) {
      const resting = list[inst.index]!;
      for (let i = 0; i < resting.length; i++) {
        const slot = resting.at(i);
        if (s.orders.pick(slot) !== pickOf(i) || s.orders.slotOf(s.orders.keyAt(slot)) !== slot || s.orders.levelOf(slot).bookSide.symbolIndex !== inst.index) {
          out.push(`${inst.symbol}: ${list === s.scriptedResting ? 'scripted' : 'counterparty'} pick list position ${i} stale`);
        }
      }
      counterparty += resting.length;
    }
  }
  if (bookOrders !== s.orders.size) out.push(`order store holds ${s.orders.size}, books hold ${bookOrders}`);
  if (bookOrders !== counterparty + s.orders.accountCount) out.push(`books hold ${bookOrders}, pick lists and account ${counterparty} + ${s.orders.accountCount}`);

  const expected = foldTrades(s, out);
  for (const asset of s.ledger.assets()) {
    const b = s.ledger.get(asset);
    if (b.free < 0n) out.push(`${asset}: free ${b.free} < 0`);
    if (b.reserved !== (reservedByAsset.get(asset) ?? 0n)) out.push(`${asset}: reserved ${b.reserved} != open BUYs' fee reserves ${reservedByAsset.get(asset) ?? 0n}`);
    if (b.reserved > b.free) out.push(`${asset}: fee reserve ${b.reserved} > free ${b.free}`);
    if (b.locked !== (lockedByAsset.get(asset) ?? 0n)) out.push(`${asset}: locked ${b.locked} != open orders' locks ${lockedByAsset.get(asset) ?? 0n}`);
    if (b.free + b.locked !== (expected.get(asset) ?? 0n)) out.push(`${asset}: free+locked ${b.free + b.locked} != start + trades ${expected.get(asset)}`);
  }
  return out;
}

function checkSide(inst: Instrument, side: BookSide, s: CoreState, checkHold: (inst: Instrument, o: AccountBookOrder) => void, out: string[]): number {
  let orders = 0;
  let previousKey = -Infinity;
  for (const level of side.levels) {
    if (level.key <= previousKey) out.push(`${inst.symbol} ${side.side}: levels out of order at ${level.price}`);
    previousKey = level.key;
    if (side.level(level.price) !== level) out.push(`${inst.symbol} ${side.side}: price index stale at ${level.price}`);
    let qty = 0;
    let count = 0;
    let prev = NONE;
    let accounts = 0;
    for (let slot = level.head; slot !== NONE; prev = slot, slot = s.orders.next(slot)) {
      count++;
      const remaining = s.orders.remaining(slot);
      qty += remaining;
      if (s.orders.prev(slot) !== prev || s.orders.levelOf(slot) !== level || level.bookSide !== side || remaining <= 0) {
        out.push(`${inst.symbol} ${side.side}: order in slot ${slot} inconsistent at ${level.price}`);
      }
      const o = s.orders.accountAt(slot);
      if (o === null) {
        if (s.orders.slotOf(s.orders.keyAt(slot)) !== slot) out.push(`${inst.symbol}: counterparty slot ${slot} not found by its key`);
        continue;
      }
      accounts++;
      // The book shows all of an order, or an iceberg's visible part (at most its display size).
      const shows = o.display === 0 ? remaining === o.remaining : remaining <= o.remaining && remaining <= o.display;
      if (o.slot !== slot || s.orders.account(o.id) !== o || o.price !== level.price || o.side !== side.side || !shows || o.account!.phase !== 'working') {
        out.push(`${inst.symbol}: account order ${o.id} inconsistent with slot ${slot}`);
      }
      checkHold(inst, o);
    }
    if (accounts !== level.accountCount) out.push(`${inst.symbol} ${side.side}: level ${level.price} counts ${level.accountCount} account orders, holds ${accounts}`);
    if (level.tail !== prev) out.push(`${inst.symbol} ${side.side}: tail stale at ${level.price}`);
    if (count === 0 || count !== level.count || qty !== level.qty) out.push(`${inst.symbol} ${side.side}: level ${level.price} sums ${level.qty}/${level.count}, orders ${qty}/${count}`);
    orders += count;
  }
  return orders;
}

/** The orders open off the book: waiting ones in the stop book, PENDING_NEW ones in an open list. */
function checkOffBook(s: CoreState, inst: Instrument, checkHold: (inst: Instrument, o: AccountBookOrder) => void, out: string[]): void {
  let waiting = 0;
  for (const o of s.openOrders.offBook.values()) {
    if (o.symbolIndex !== inst.index) continue;
    const acct = o.account!;
    if (o.slot !== NONE || s.orders.account(o.id) !== undefined || s.clientIds[inst.index]!.get(acct.clientOrderId) !== o) out.push(`order ${o.id}: off the book but not open as such`);
    if (acct.phase === 'waiting') {
      waiting++;
      if (!s.stops.has(o.id) || acct.status !== 'NEW' && acct.status !== 'PARTIALLY_FILLED' || acct.workingTime !== -1) out.push(`order ${o.id}: waits but is not in the stop book as untriggered`);
    } else if (acct.phase === 'pending') {
      if (acct.status !== 'PENDING_NEW' || !s.orderLists.open.get(acct.orderListId)?.pending.includes(o)) out.push(`order ${o.id}: pending outside its open list`);
    } else out.push(`order ${o.id}: ${acct.phase} off the book between commands`);
    checkHold(inst, o);
  }
  const stops = s.stops.waiting(inst.index);
  if (stops.stops.length !== waiting || inst.watchedStops !== waiting) out.push(`${inst.symbol}: ${waiting} orders wait, the stop book holds ${stops.stops.length}, watchedStops ${inst.watchedStops}`);
  if (!stops.heapsSound) out.push(`${inst.symbol}: a stop heap is out of order`);
  const [above, below] = stops.window;
  if (inst.triggerAbove !== above || (above !== 0 && inst.triggerBelow !== below)) out.push(`${inst.symbol}: trigger window ${inst.triggerAbove}/${inst.triggerBelow}, nearest stops ${above}/${below}`);
  for (const w of stops.stops) if (s.openOrders.offBook.get(w.orderId) !== w.order) out.push(`${inst.symbol}: stop ${w.orderId} waits but is not open`);
}

/** Open lists: their pair holds the larger of its legs' needs; returns the paired legs. */
function checkLists(s: CoreState, maxFee: bigint, locked: Totals, reserved: Totals, out: string[]): Set<AccountBookOrder> {
  const paired = new Set<AccountBookOrder>();
  const perSymbol = s.markets.instruments.map(() => 0);
  for (const list of s.orderLists.open.values()) {
    const inst = s.markets.instruments[list.symbolIndex]!;
    perSymbol[inst.index]!++;
    if (list.ended) out.push(`list ${list.orderListId}: ended but open`);
    for (const o of list.orders) if (o.account!.orderListId !== list.orderListId) out.push(`list ${list.orderListId}: order ${o.id} names list ${o.account!.orderListId}`);
    if (list.pair === null) continue;
    const [a, b] = list.pair as [AccountBookOrder, AccountBookOrder];
    for (const o of [a, b]) {
      paired.add(o);
      if (s.openOrders.account(o.id) !== o) out.push(`list ${list.orderListId}: pair leg ${o.id} is not open`);
    }
    const want = largerNeed(needOf(inst, a.account!, a.remaining, maxFee), needOf(inst, b.account!, b.remaining, maxFee));
    if (list.pairHold.lock !== want.lock || list.pairHold.reserve !== want.reserve) out.push(`list ${list.orderListId}: pair holds ${list.pairHold.lock}/${list.pairHold.reserve}, should hold ${want.lock}/${want.reserve}`);
    add(locked, a.side === 'BUY' ? inst.quote : inst.base, list.pairHold.lock);
    add(reserved, inst.quote, list.pairHold.reserve);
  }
  perSymbol.forEach((n, i) => {
    if (n !== s.orderLists.openPerSymbol[i]) out.push(`${s.markets.instruments[i]!.symbol}: ${s.orderLists.openPerSymbol[i]} open lists counted, ${n} open`);
  });
  return paired;
}

/**
 * Start balances plus every trade's net effect, minus commissions, folded in incrementally.
 * Each new trade's commission is checked on the way: whole 0.00000001s, the rate's
 * commission rounded up, exactly (the fee reserve of open BUYs means free quote always covers it).
 */
function foldTrades(s: CoreState, out: string[]): Map<string, bigint> {
  const { processed, expected } = s.conservation;
  if (expected.size === 0) for (const [asset, amount] of s.markets.startBalances) expected.set(asset, amount);
  const add = (asset: string, v: bigint) => expected.set(asset, (expected.get(asset) ?? 0n) + v);
  for (const inst of s.markets.instruments) {
    const trades = s.tradeLog.all(inst.symbol);
    for (let i = processed.get(inst.symbol) ?? 0; i < trades.length; i++) {
      const t = trades[i]!;
      const due = inst.commission(BigInt(t.price) * BigInt(t.qty), t.isMaker ? s.markets.makerCentiBps : s.markets.takerCentiBps);
      if (t.commission % inst.commissionUnit !== 0n) out.push(`trade ${inst.symbol} ${t.tradeId}: commission ${t.commission} not at 8 decimals`);
      if (t.commission !== due) out.push(`trade ${inst.symbol} ${t.tradeId}: commission ${t.commission} charged, ${due} due`);
      const base = BigInt(t.qty) * inst.basePerLot;
      if (t.isBuyer) {
        add(inst.base, base);
        add(inst.quote, -t.quoteQty - t.commission);
      } else {
        add(inst.base, -base);
        add(inst.quote, t.quoteQty - t.commission);
      }
    }
    processed.set(inst.symbol, trades.length);
  }
  return expected;
}

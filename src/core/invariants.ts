// The core's invariants (ARCHITECTURE "validate the book's internal state after every test"):
// levels sorted and consistent with their orders, the book uncrossed after matching, balances
// non-negative, locks equal to what open orders hold, fee reserves equal to what open BUYs keep
// (their open lots' worst-case commission) and within free, every commission at 8 decimals and never
// other than its rate (rounded up: fee reserves make it always payable, issue 18), and every asset conserved against the trade log. Returns the
// violations found (empty = healthy).

import { NONE, type BookSide } from './book/index.ts';
import type { Instrument } from './markets.ts';
import type { CoreState } from './state.ts';

export function invariantViolations(s: CoreState): string[] {
  const out: string[] = [];
  let bookOrders = 0;
  let counterparty = 0;
  const lockedByAsset = new Map<string, bigint>();
  const reservedByAsset = new Map<string, bigint>();
  const maxFee = s.markets.makerCentiBps > s.markets.takerCentiBps ? s.markets.makerCentiBps : s.markets.takerCentiBps;
  for (const inst of s.markets.instruments) {
    const book = s.books[inst.index]!;
    for (const side of [book.bids, book.asks]) {
      bookOrders += checkSide(inst, side, s, lockedByAsset, out);
    }
    for (const level of book.bids.levels) {
      for (let slot = level.head; slot !== NONE; slot = s.orders.next(slot)) {
        const order = s.orders.accountAt(slot);
        if (order === null) continue;
        // Issue 18: every open lot of a BUY keeps its commission at the higher rate, rounded up.
        const want = BigInt(order.remaining) * inst.commission(BigInt(order.price), maxFee);
        if (order.account!.feeReserve !== want) out.push(`order ${order.id}: reserves ${order.account!.feeReserve}, should reserve ${want}`);
        reservedByAsset.set(inst.quote, (reservedByAsset.get(inst.quote) ?? 0n) + order.account!.feeReserve);
      }
    }
    const bid = book.bids.best();
    const ask = book.asks.best();
    if (bid && ask && bid.price >= ask.price) out.push(`${inst.symbol}: book crossed ${bid.price} >= ${ask.price}`);
    const accountOpen = [...s.clientIds[inst.index]!.values()];
    if (accountOpen.length !== inst.accountOpenOrders) out.push(`${inst.symbol}: open order count ${inst.accountOpenOrders} != ${accountOpen.length}`);
    for (const [cid, o] of s.clientIds[inst.index]!) {
      if (o.account?.clientOrderId !== cid || o.slot === NONE || s.orders.account(o.id) !== o) out.push(`${inst.symbol}: client id ${cid} maps to a stale order`);
    }
    const resting = s.counterpartyResting[inst.index]!;
    for (let i = 0; i < resting.length; i++) {
      const slot = resting.at(i);
      if (s.orders.pick(slot) !== i || s.orders.slotOf(s.orders.keyAt(slot)) !== slot || s.orders.levelOf(slot).bookSide.symbolIndex !== inst.index) {
        out.push(`${inst.symbol}: counterparty pick list position ${i} stale`);
      }
    }
    counterparty += resting.length;
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

function checkSide(inst: Instrument, side: BookSide, s: CoreState, lockedByAsset: Map<string, bigint>, out: string[]): number {
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
      if (o.slot !== slot || s.orders.account(o.id) !== o || o.price !== level.price || o.side !== side.side || o.remaining !== remaining) {
        out.push(`${inst.symbol}: account order ${o.id} inconsistent with slot ${slot}`);
      }
      const acct = o.account!;
      if (acct.executedQty + acct.preventedQty + o.remaining !== acct.origQty) out.push(`order ${o.id}: quantities do not add up`);
      const asset = o.side === 'BUY' ? inst.quote : inst.base;
      // Spec 2.4: quote notional (BUY) or base quantity (SELL), nothing more.
      const want = o.side === 'BUY' ? inst.notional(o.price, o.remaining) : BigInt(o.remaining) * inst.basePerLot;
      if (acct.locked !== want) out.push(`order ${o.id}: locks ${acct.locked}, should lock ${want}`);
      lockedByAsset.set(asset, (lockedByAsset.get(asset) ?? 0n) + acct.locked);
    }
    if (accounts !== level.accountCount) out.push(`${inst.symbol} ${side.side}: level ${level.price} counts ${level.accountCount} account orders, holds ${accounts}`);
    if (level.tail !== prev) out.push(`${inst.symbol} ${side.side}: tail stale at ${level.price}`);
    if (count === 0 || count !== level.count || qty !== level.qty) out.push(`${inst.symbol} ${side.side}: level ${level.price} sums ${level.qty}/${level.count}, orders ${qty}/${count}`);
    orders += count;
  }
  return orders;
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

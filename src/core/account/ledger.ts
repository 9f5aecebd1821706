// The account's ledger: balances per asset, free and locked, in atoms; holds for open orders,
// their release, and the settlement of fills (spec 2.3, 2.4). Records which assets changed so
// that each command ends with one `outboundAccountPosition` carrying their figures (spec 6.2).

import type { Instrument } from '../markets.ts';
import type { AssetBalance, Side } from '../types.ts';

export interface Balance {
  free: bigint;
  locked: bigint;
  /**
   * The part of `free` kept for the worst-case commission of open BUYs (issue 18): shown as
   * free, but no order may lock or spend it, so every maker fill is charged in full.
   */
  reserved: bigint;
}

export class Ledger {
  private readonly balances = new Map<string, Balance>();
  private readonly changed = new Set<string>();

  constructor(
    start: ReadonlyMap<string, bigint>,
    /** Atom decimals per asset (8 for an asset no configuration names). */
    private readonly decimals: ReadonlyMap<string, number>,
  ) {
    for (const [asset, amount] of start) this.balances.set(asset, { free: amount, locked: 0n, reserved: 0n });
  }

  get(asset: string): Balance {
    let balance = this.balances.get(asset);
    if (balance === undefined) {
      balance = { free: 0n, locked: 0n, reserved: 0n };
      this.balances.set(asset, balance);
    }
    return balance;
  }

  assets(): string[] {
    return [...this.balances.keys()];
  }

  free(asset: string): bigint {
    return this.get(asset).free;
  }

  /** What an order may lock or spend: free less the fee reserve of open BUYs. */
  spendable(asset: string): bigint {
    const balance = this.get(asset);
    return balance.free - balance.reserved;
  }

  /**
   * Moves `amount` from free to locked and reserves `reserve` more of free (a BUY's worst-case
   * commission, spec 2.4: the lock stays exactly the notional), if what is spendable covers
   * both; false (nothing changes) otherwise.
   */
  hold(asset: string, amount: bigint, reserve = 0n): boolean {
    const balance = this.get(asset);
    if (balance.free - balance.reserved < amount + reserve) return false;
    balance.free -= amount;
    balance.locked += amount;
    balance.reserved += reserve;
    this.changed.add(asset);
    return true;
  }

  /** Gives back part of the fee reserve (the order's quantity filled, cancelled or amended away). */
  unreserve(asset: string, amount: bigint): void {
    this.get(asset).reserved -= amount;
  }

  release(asset: string, amount: bigint): void {
    if (amount === 0n) return;
    const balance = this.get(asset);
    balance.locked -= amount;
    balance.free += amount;
    this.changed.add(asset);
  }

  /** Adds (or, negative, removes) free atoms. */
  addFree(asset: string, amount: bigint): void {
    this.get(asset).free += amount;
    this.changed.add(asset);
  }

  /**
   * Takes up to `due` atoms from free, never more than free holds, in whole multiples of `unit`
   * (the commission precision); returns what was taken.
   */
  chargeFree(asset: string, due: bigint, unit: bigint): bigint {
    const balance = this.get(asset);
    let charged = due;
    if (balance.free < due) charged = balance.free > 0n ? balance.free - (balance.free % unit) : 0n;
    if (charged === 0n) return 0n;
    balance.free -= charged;
    this.changed.add(asset);
    return charged;
  }

  /** Removes locked atoms (a fill pays out of its lock). */
  spendLocked(asset: string, amount: bigint): void {
    this.get(asset).locked -= amount;
    this.changed.add(asset);
  }

  /**
   * Moves balances for one fill of `qty` lots worth `notional` quote atoms. An order with a
   * hold pays out of it: `heldRelease` is the part of its hold these lots free (for a BUY the
   * notional at the order's own price, so a better fill price frees the rest); a MARKET order
   * (null) pays from free. Then the commission `due` is charged from free quote in whole
   * `commissionUnit`s, never more than free holds; returns what was charged.
   */
  settle(inst: Instrument, side: Side, heldRelease: bigint | null, notional: bigint, baseAmount: bigint, due: bigint): bigint {
    if (side === 'BUY') {
      if (heldRelease !== null) {
        this.spendLocked(inst.quote, heldRelease);
        this.addFree(inst.quote, heldRelease - notional);
      } else {
        this.addFree(inst.quote, -notional);
      }
      this.addFree(inst.base, baseAmount);
    } else {
      if (heldRelease !== null) this.spendLocked(inst.base, baseAmount);
      else this.addFree(inst.base, -baseAmount);
      this.addFree(inst.quote, notional);
    }
    return this.chargeFree(inst.quote, due, inst.commissionUnit);
  }

  /** Whether any asset changed since the last takeChanged(). */
  get hasChanges(): boolean {
    return this.changed.size > 0;
  }

  /** One asset's figures now, as a value. */
  snapshot(asset: string): AssetBalance {
    const b = this.get(asset);
    return { asset, free: b.free, locked: b.locked, decimals: this.decimals.get(asset) ?? DEFAULT_DECIMALS };
  }

  /** The balances of the assets changed since the last call, in first-change order. */
  takeChanged(): AssetBalance[] {
    const out: AssetBalance[] = [];
    for (const asset of this.changed) out.push(this.snapshot(asset));
    this.changed.clear();
    return out;
  }
}

const DEFAULT_DECIMALS = 8;

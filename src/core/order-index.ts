// Every resting order by book key (account: its orderId > 0; counterparty: -1, -2, ... in
// placement order). The account's orders, at most a few hundred, sit in a Map. The
// counterparty's, hundreds of thousands on a deep book, sit in a table addressed by the key
// itself (that Map as large as the book was the top cost of the engine bench's cancels). Its
// keys are handed out in sequence, so the live ones fill a few pages near the newest key, plus
// one page per long-lived order.

import type { Order } from './book.ts';
import { PagedTable } from './paged-table.ts';

export class OrderIndex {
  private readonly account = new Map<number, Order>();
  /** By sequence number: -key. */
  private readonly counterparty = new PagedTable<Order>();

  get size(): number {
    return this.account.size + this.counterparty.size;
  }

  get(key: number): Order | undefined {
    return key >= 0 ? this.account.get(key) : this.counterparty.get(-key);
  }

  set(key: number, order: Order): void {
    if (key >= 0) this.account.set(key, order);
    else this.counterparty.set(-key, order);
  }

  delete(key: number): boolean {
    return key >= 0 ? this.account.delete(key) : this.counterparty.delete(-key);
  }
}

// Every resting order by book key (account: its orderId > 0; counterparty: -1, -2, ... in
// placement order). The account's orders, at most a few hundred, sit in a Map. The
// counterparty's, hundreds of thousands on a deep book, sit in a table addressed by the key
// itself: one array read instead of a hash lookup in a Map as large as the book (that Map was
// the top cost of the engine bench's cancels). Counterparty keys are handed out in sequence, so
// the table is kept in pages of PAGE_SIZE entries; a page is dropped once its last order is gone
// and no later key can land in it, so long-lived orders pin a page each, not the whole history.

import type { Order } from './book.ts';

const PAGE_SIZE = 4096;

interface Page {
  readonly orders: (Order | null)[];
  /** Entries that are not null. */
  live: number;
}

export class OrderIndex {
  private readonly account = new Map<number, Order>();
  /** Counterparty pages by page number (sequence / PAGE_SIZE), sequence = -key. */
  private readonly pages = new Map<number, Page>();
  /** Highest page number created so far: the page new keys land in. */
  private newestPage = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: number): Order | undefined {
    if (key >= 0) return this.account.get(key);
    const sequence = -key;
    const page = this.pages.get(Math.floor(sequence / PAGE_SIZE));
    return page?.orders[sequence % PAGE_SIZE] ?? undefined;
  }

  set(key: number, order: Order): void {
    if (key >= 0) {
      if (!this.account.has(key)) this.count++;
      this.account.set(key, order);
      return;
    }
    const sequence = -key;
    const page = this.pageFor(Math.floor(sequence / PAGE_SIZE));
    const at = sequence % PAGE_SIZE;
    if (page.orders[at] === null) {
      page.live++;
      this.count++;
    }
    page.orders[at] = order;
  }

  delete(key: number): boolean {
    if (key >= 0) {
      if (!this.account.delete(key)) return false;
      this.count--;
      return true;
    }
    const sequence = -key;
    const pageNumber = Math.floor(sequence / PAGE_SIZE);
    const page = this.pages.get(pageNumber);
    const at = sequence % PAGE_SIZE;
    if (page === undefined || (page.orders[at] ?? null) === null) return false;
    page.orders[at] = null;
    this.count--;
    if (--page.live === 0 && pageNumber < this.newestPage) this.pages.delete(pageNumber);
    return true;
  }

  private pageFor(pageNumber: number): Page {
    let page = this.pages.get(pageNumber);
    if (page !== undefined) return page;
    page = { orders: new Array<Order | null>(PAGE_SIZE).fill(null), live: 0 };
    this.pages.set(pageNumber, page);
    if (pageNumber > this.newestPage) {
      // The previous newest page can take no more keys: drop it now if it is already empty.
      if (this.pages.get(this.newestPage)?.live === 0) this.pages.delete(this.newestPage);
      this.newestPage = pageNumber;
    }
    return page;
  }
}

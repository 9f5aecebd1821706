// A table addressed directly by a non-negative integer key (a counterparty order's sequence
// number, a price in ticks): one small Map lookup for the key's page, then an array read. On a
// deep book this replaces a lookup in a Map as large as the book, whose buckets and entries are
// mostly out of cache. Pages of keys that hold nothing are dropped (one emptied page is kept for
// reuse, so a key range that empties and refills does not allocate each time); memory follows
// the live keys' spread, not the history.

/** Keys k share a page with the keys of the same floor(k / PAGE_SIZE). A constant, so that the
 * division and remainder compile to shifts and masks. */
const PAGE_SIZE = 1024;

interface Page<T> {
  readonly slots: (T | null)[];
  /** Slots that are not null. */
  used: number;
}

export class PagedTable<T> {
  private readonly pages = new Map<number, Page<T>>();
  private spare: Page<T> | null = null;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Pages currently held (for tests of the memory behaviour). */
  get pageCount(): number {
    return this.pages.size;
  }

  get(key: number): T | undefined {
    const page = this.pages.get(Math.floor(key / PAGE_SIZE));
    return page?.slots[key % PAGE_SIZE] ?? undefined;
  }

  /** Stores `value` at `key`, replacing what was there. */
  set(key: number, value: T): void {
    const pageNumber = Math.floor(key / PAGE_SIZE);
    const page = this.pages.get(pageNumber) ?? this.addPage(pageNumber);
    const at = key % PAGE_SIZE;
    if (page.slots[at] === null) {
      page.used++;
      this.count++;
    }
    page.slots[at] = value;
  }

  /** Empties `key`; false if it held nothing. */
  delete(key: number): boolean {
    const pageNumber = Math.floor(key / PAGE_SIZE);
    const page = this.pages.get(pageNumber);
    const at = key % PAGE_SIZE;
    if (page === undefined || (page.slots[at] ?? null) === null) return false;
    page.slots[at] = null;
    this.count--;
    if (--page.used === 0) {
      this.pages.delete(pageNumber);
      this.spare = page;
    }
    return true;
  }

  private addPage(pageNumber: number): Page<T> {
    const page = this.spare ?? { slots: new Array<T | null>(PAGE_SIZE).fill(null), used: 0 };
    this.spare = null;
    this.pages.set(pageNumber, page);
    return page;
  }
}

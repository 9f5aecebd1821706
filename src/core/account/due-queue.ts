// The work a command leaves due (issue 33): conditional orders its trades triggered and order
// list orders its fills activated. They run after the command has finished, in placement
// (orderId) order, and what they trade may add more, which this queue puts in its place: a
// binary min-heap on the orderId. Empty between commands; the common path only asks `size`.

export class DueQueue<T> {
  private readonly keys: number[] = [];
  private readonly items: T[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, item: T): void {
    const keys = this.keys;
    const items = this.items;
    let at = keys.length;
    keys.push(key);
    items.push(item);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[at] = keys[parent]!;
      items[at] = items[parent]!;
      at = parent;
    }
    keys[at] = key;
    items[at] = item;
  }

  /** The item with the lowest key (the queue must not be empty). */
  pop(): T {
    const keys = this.keys;
    const items = this.items;
    const top = items[0]!;
    const lastKey = keys.pop()!;
    const lastItem = items.pop()!;
    const n = keys.length;
    if (n > 0) {
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= n) break;
        if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
        if (keys[child]! >= lastKey) break;
        keys[at] = keys[child]!;
        items[at] = items[child]!;
        at = child;
      }
      keys[at] = lastKey;
      items[at] = lastItem;
    }
    return top;
  }
}

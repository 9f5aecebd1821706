// Every resting order's book entry, packed: one 32-byte record per slot in one ArrayBuffer (open
// lots and book key as doubles; the level links, the level and the pick-list position as int32),
// so a cancel, a rest or a fill touches a few records of 32 bytes instead of 3-4 scattered Order
// objects of ~104. On the deep book (250k resting) the objects were 26 MB, beyond the caches,
// and each op stalled on them; the records are 8 MB (bench/REPORT.md, "Tried, not kept": the packed what-if that measured the bound).
//
// A slot's key is -(generation * SLOT_LIMIT + slot + 1): the counterparty's book key, looked up
// with one read and a check that the slot still holds that key, so a key of an order that is
// gone never finds the slot's next occupant. Slots are recycled last-freed first, each with the
// generation of the last key it handed out (kept on the free stack: a rest reads nothing per
// slot beyond its record). The account's orders (a few hundred at most) take slots too, so they
// queue in the same level lists, and keep their Order object, found by orderId or by slot.

/** "No slot": an end of a level list, a key that finds nothing. */
export const NONE = -1;
const SLOT_LIMIT = 2 ** 22;
/** Record layout: doubles [REMAINING, KEY] then int32 [NEXT, PREV, LEVEL, PICK]. */
const F64_STRIDE = 4;
const I32_STRIDE = 8;
const REMAINING = 0;
const KEY = 1;
const NEXT = 4;
const PREV = 5;
const LEVEL = 6;
/** Position in its symbol's pick list (counterparty; a scripted order's is below NONE: resting-orders.ts), or NONE for an account order. */
const PICK = 7;
const FIRST_CAPACITY = 1024;

/**
 * The slot of a key: its low 22 bits, read with a bitwise AND, exact for any key below 2^53
 * (ToInt32 keeps the low 32 bits), where `% SLOT_LIMIT` on a key past the small-integer range is
 * a floating-point remainder, a call out of optimized code.
 */
function slotOfKey(key: number): number {
  return (-key - 1) & (SLOT_LIMIT - 1);
}

/** What the store needs of an account order: its orderId, and where it keeps its slot. */
export interface AccountEntry {
  readonly id: number;
  slot: number;
}

/**
 * Generic in the level and account-order types (book.ts's Level and Order, as `BookStore`), so
 * that the book imports the store and not the other way round.
 */
export class OrderStore<L, O extends AccountEntry> {
  private f64 = new Float64Array(FIRST_CAPACITY * F64_STRIDE);
  private i32 = new Int32Array(this.f64.buffer);
  /** Slots handed out at least once: [0, highWater). */
  private highWater = 0;
  /** Free slots, each as two entries: the slot, then the generation of its last key. */
  private readonly freeSlots: number[] = [];
  private occupied = 0;
  /** Ls by id (a record holds its level's id); ids of dropped levels are reused. */
  private readonly levels: L[] = [];
  private readonly freeLIds: number[] = [];
  private readonly accountById = new Map<number, O>();
  private readonly accountBySlot = new Map<number, O>();

  /** Resting orders, the account's and the counterparty's. */
  get size(): number {
    return this.occupied;
  }

  /** Slots ever handed out (for tests: it stays as many as the most resting at once). */
  get slotCount(): number {
    return this.highWater;
  }

  /** A free slot under a new key, for an order about to rest; `pick` as for setPick. */
  allocate(pick: number): number {
    const free = this.freeSlots;
    let slot: number;
    let generation: number;
    if (free.length > 0) {
      generation = free.pop()! + 1;
      slot = free.pop()!;
    } else {
      slot = this.highWater;
      if (slot >= SLOT_LIMIT) throw new Error(`more than ${SLOT_LIMIT} resting orders`);
      if (slot * F64_STRIDE === this.f64.length) this.grow();
      this.highWater++;
      generation = 1;
    }
    this.f64[slot * F64_STRIDE + KEY] = -(generation * SLOT_LIMIT + slot + 1);
    this.i32[slot * I32_STRIDE + PICK] = pick;
    this.occupied++;
    return slot;
  }

  /** Frees a slot whose order left the book: its key finds nothing from now on. */
  free(slot: number): void {
    const at = slot * F64_STRIDE + KEY;
    const key = this.f64[at]!;
    this.f64[at] = 0;
    this.freeSlots.push(slot, Math.floor((-key - 1) / SLOT_LIMIT));
    this.occupied--;
  }

  /**
   * The slot of a resting counterparty order's key, or NONE. An account order's slot has a key
   * too (its generation), never handed out: it finds nothing here (see `account`).
   */
  slotOf(key: number): number {
    if (key >= 0) return NONE;
    const slot = slotOfKey(key);
    return slot < this.highWater && this.f64[slot * F64_STRIDE + KEY] === key && this.i32[slot * I32_STRIDE + PICK] !== NONE ? slot : NONE;
  }

  keyAt(slot: number): number {
    return this.f64[slot * F64_STRIDE + KEY]!;
  }

  remaining(slot: number): number {
    return this.f64[slot * F64_STRIDE + REMAINING]!;
  }

  setRemaining(slot: number, lots: number): void {
    this.f64[slot * F64_STRIDE + REMAINING] = lots;
  }

  next(slot: number): number {
    return this.i32[slot * I32_STRIDE + NEXT]!;
  }

  setNext(slot: number, next: number): void {
    this.i32[slot * I32_STRIDE + NEXT] = next;
  }

  prev(slot: number): number {
    return this.i32[slot * I32_STRIDE + PREV]!;
  }

  setPrev(slot: number, prev: number): void {
    this.i32[slot * I32_STRIDE + PREV] = prev;
  }

  /** Fills a record for the back of a level: after `prev`, last, `lots` open. */
  link(slot: number, levelId: number, prev: number, lots: number): void {
    const i = slot * I32_STRIDE;
    this.i32[i + NEXT] = NONE;
    this.i32[i + PREV] = prev;
    this.i32[i + LEVEL] = levelId;
    this.f64[slot * F64_STRIDE + REMAINING] = lots;
  }

  levelOf(slot: number): L {
    return this.levels[this.i32[slot * I32_STRIDE + LEVEL]!]!;
  }

  pick(slot: number): number {
    return this.i32[slot * I32_STRIDE + PICK]!;
  }

  setPick(slot: number, pick: number): void {
    this.i32[slot * I32_STRIDE + PICK] = pick;
  }

  isAccount(slot: number): boolean {
    return this.i32[slot * I32_STRIDE + PICK] === NONE;
  }

  // ---------------------------------------------------------------- levels

  /** An id for a new level, so records name it with an int32. */
  addLevel(level: L): number {
    const id = this.freeLIds.length > 0 ? this.freeLIds.pop()! : this.levels.length;
    this.levels[id] = level;
    return id;
  }

  /** A level dropped from its book side: no record names it any more. */
  dropLevel(id: number): void {
    this.freeLIds.push(id);
  }

  // ---------------------------------------------------------------- the account's orders

  /** An open account order by orderId. */
  account(orderId: number): O | undefined {
    return this.accountById.get(orderId);
  }

  /** The account order resting in `slot`, or null for a counterparty order. */
  accountAt(slot: number): O | null {
    return this.isAccount(slot) ? this.accountBySlot.get(slot)! : null;
  }

  /** Gives an account order a slot (order.slot) before it rests. */
  addAccount(order: O): void {
    const slot = this.allocate(NONE);
    order.slot = slot;
    this.accountById.set(order.id, order);
    this.accountBySlot.set(slot, order);
  }

  /** An account order left the book: its slot is freed. */
  removeAccount(order: O): void {
    this.accountById.delete(order.id);
    this.accountBySlot.delete(order.slot);
    this.free(order.slot);
    order.slot = NONE;
  }

  /** Open account orders (for the invariant checks). */
  get accountCount(): number {
    return this.accountById.size;
  }

  private grow(): void {
    const f64 = new Float64Array(this.f64.length * 2);
    f64.set(this.f64);
    this.f64 = f64;
    this.i32 = new Int32Array(f64.buffer);
  }
}

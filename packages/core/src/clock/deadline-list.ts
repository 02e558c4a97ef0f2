import type { CancelTimer, Clock } from './clock.js';

/**
 * Something waiting for its deadline in a {@link DeadlineList}. The links live on the entry,
 * so waiting allocates nothing.
 *
 * @internal
 */
export interface DeadlineEntry {
  /** Clock time at which the entry expires. */
  readonly deadline: number;
  /** Owned by the list. */
  previousEntry: DeadlineEntry | undefined;
  /** Owned by the list. */
  nextEntry: DeadlineEntry | undefined;
  /** Called once when the deadline has passed; the entry has left the list by then. */
  expire(): void;
}

/**
 * Entries that joined with the same delay, so in deadline order, behind one clock timer
 * armed for the earliest. Each attempt of a tool waits the same time, so its attempts share
 * one list: a call in flight then costs two links instead of a timer object and its
 * closures, and starting and ending an attempt sets and clears no timer.
 *
 * When the entry the timer was armed for leaves early, the timer is kept; when it fires, the
 * entries whose deadline has passed expire (the one it was armed for expires whatever the
 * clock says, as a timer of its own would have), and it is armed again for the new earliest.
 * An empty list cancels its timer and tells its owner.
 *
 * @internal
 */
export class DeadlineList {
  private head: DeadlineEntry | undefined;
  private tail: DeadlineEntry | undefined;
  private cancelTimer: CancelTimer | undefined;
  private armedFor: DeadlineEntry | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly onEmpty: () => void,
  ) {}

  /**
   * Adds `entry` at the end. Refuses (returns false) an entry whose deadline is earlier than
   * the last one's (a clock set back): it must then wait on a timer of its own.
   */
  add(entry: DeadlineEntry): boolean {
    const tail = this.tail;
    if (tail !== undefined && entry.deadline < tail.deadline) return false;
    entry.previousEntry = tail;
    entry.nextEntry = undefined;
    if (tail === undefined) this.head = entry;
    else tail.nextEntry = entry;
    this.tail = entry;
    if (this.cancelTimer === undefined) this.arm(entry);
    return true;
  }

  /** Takes `entry` out; does nothing if it is not in the list. */
  remove(entry: DeadlineEntry): void {
    const { previousEntry, nextEntry } = entry;
    if (previousEntry === undefined && this.head !== entry) return;
    if (previousEntry === undefined) this.head = nextEntry;
    else previousEntry.nextEntry = nextEntry;
    if (nextEntry === undefined) this.tail = previousEntry;
    else nextEntry.previousEntry = previousEntry;
    entry.previousEntry = undefined;
    entry.nextEntry = undefined;
    if (this.head === undefined) {
      this.cancelTimer?.();
      this.cancelTimer = undefined;
      this.armedFor = undefined;
      this.onEmpty();
    }
  }

  private arm(entry: DeadlineEntry): void {
    this.armedFor = entry;
    this.cancelTimer = this.clock.setTimer(this.fire, entry.deadline - this.clock.now());
  }

  private readonly fire = (): void => {
    const armedFor = this.armedFor;
    this.cancelTimer = undefined;
    this.armedFor = undefined;
    const now = this.clock.now();
    let entry = this.head;
    while (entry !== undefined && (entry === armedFor || entry.deadline <= now)) {
      this.remove(entry);
      entry.expire();
      entry = this.head;
    }
    if (entry !== undefined && this.cancelTimer === undefined) this.arm(entry);
  };
}

/** Per clock (weak), one list per delay in use now: a list leaves when its last entry does. */
const listsByClock = new WeakMap<Clock, Map<number, DeadlineList>>();

/**
 * Puts `entry` in the list of `clock`'s entries waiting `delayMs`, made when first needed
 * and dropped when empty. Returns that list, or undefined when the entry must wait on a
 * timer of its own (see {@link DeadlineList.add}).
 *
 * @internal
 */
export function joinDeadlineList(
  clock: Clock,
  delayMs: number,
  entry: DeadlineEntry,
): DeadlineList | undefined {
  let lists = listsByClock.get(clock);
  if (lists === undefined) {
    lists = new Map();
    listsByClock.set(clock, lists);
  }
  let list = lists.get(delayMs);
  if (list === undefined) {
    const own = lists;
    list = new DeadlineList(clock, () => {
      if (own.get(delayMs) === list) own.delete(delayMs);
    });
    lists.set(delayMs, list);
  }
  return list.add(entry) ? list : undefined;
}

/**
 * A budget of body bytes in flight across every read of a process. One page
 * is capped at 10 MB, but twenty hostile pages at once (gzip bombs, endless
 * bodies) would hold twenty times that, and more once decoded; a server
 * shares one budget across all its requests, so memory stays bounded
 * whatever arrives together. A read that would pass the budget is cut short
 * (`too_large`) rather than queued: queued readers holding part of the budget
 * could wait on each other until they all time out.
 * @module
 */

/** Bytes in flight, shared by every read that holds it. */
export interface ByteBudget {
  /** Takes `n` bytes; `false` (nothing taken) when that would pass the limit. */
  take(n: number): boolean;
  /** Gives `n` bytes back. */
  give(n: number): void;
  /** Bytes taken now. */
  readonly used: number;
  readonly limit: number;
}

/** Default budget: room for nine full-size pages read at once. */
export const DEFAULT_BUDGET_BYTES = 96 * 1024 * 1024;

/**
 * A byte budget of `limit` bytes.
 *
 * @example
 * ```ts
 * const budget = createByteBudget(1024);
 * budget.take(1000); // true
 * budget.take(100); // false
 * budget.give(1000);
 * ```
 */
export function createByteBudget(limit = DEFAULT_BUDGET_BYTES): ByteBudget {
  let used = 0;
  return {
    take(n) {
      if (used + n > limit) return false;
      used += n;
      return true;
    },
    give(n) {
      used = Math.max(0, used - n);
    },
    get used() {
      return used;
    },
    limit,
  };
}

package dev.metahooks.server;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who may come in: a hook call is admitted with the bytes of its body, taken from the body budget
 * ({@code METAHOOKS_BODY_BUDGET_BYTES}) before the body is read, and one of {@code METAHOOKS_MAX_CONCURRENT_HOOKS}
 * slots. A call that finds neither free within the admission wait (a fifth of the deadline, so that a burst is
 * absorbed) is refused and gets 429 with Retry-After. Bytes are counted in KiB, so that a semaphore holds them.
 */
final class Admission {
  private static final int UNIT = 1024;

  private final Semaphore budget;
  private final Semaphore slots;
  private final long budgetBytes;
  private final int slotCount;
  private final Duration wait;

  Admission(long budgetBytes, int slots, Duration wait) {
    this.budgetBytes = budgetBytes;
    this.budget = new Semaphore(units(budgetBytes));
    this.slotCount = slots;
    this.slots = new Semaphore(slots);
    this.wait = wait;
  }

  /** Too many bytes or calls in memory at once; the message says which. */
  static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Admits a call with a body of {@code bodyBytes} (what a body of unknown length takes at first: it takes more
   * as it grows), waiting up to the admission wait for room.
   *
   * @throws Refused when there was no room in time
   */
  Ticket admit(long bodyBytes) {
    long until = System.nanoTime() + wait.toNanos();
    int units = units(bodyBytes);
    if (!acquire(budget, units, until)) {
      throw overBudget();
    }
    if (!acquire(slots, 1, until)) {
      budget.release(units);
      throw new Refused("more than " + slotCount + " hook calls at once; retry after 1 s");
    }
    return new Ticket(this, units);
  }

  private Refused overBudget() {
    return new Refused("request bodies in memory would exceed " + budgetBytes
        + " bytes (METAHOOKS_BODY_BUDGET_BYTES); retry after 1 s");
  }

  /** Bytes of the budget in use, for the metrics. */
  long bytesInUse() {
    return (long) (units(budgetBytes) - budget.availablePermits()) * UNIT;
  }

  private static boolean acquire(Semaphore semaphore, int permits, long until) {
    try {
      return semaphore.tryAcquire(permits, Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static int units(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (bytes + UNIT - 1) / UNIT));
  }

  /**
   * One admitted call's bytes and slot. Both are given back when every holder has let go: the thread that writes
   * the answer, and the worker that reads and computes it, which may go on after a deadline answer was written.
   * So a slot bounds real work, and a client that does not read its answer keeps its slot until the write timeout.
   */
  static final class Ticket {
    /** What a call that was never admitted holds: nothing. */
    static final Ticket NONE = new Ticket(null, 0);

    private final Admission admission;
    private final AtomicInteger holders = new AtomicInteger(1);
    private int units;

    private Ticket(Admission admission, int units) {
      this.admission = admission;
      this.units = units;
    }

    /** One more holder, who must {@link #release} too. */
    Ticket hold() {
      holders.incrementAndGet();
      return this;
    }

    /**
     * A body of unknown length has grown to {@code bodyBytes}: takes what it lacks, without waiting (its bytes are
     * arriving already).
     *
     * @throws Refused when the budget has no room for it
     */
    void grow(long bodyBytes) {
      int needed = units(bodyBytes) - units;
      if (needed > 0 && admission != null) {
        if (!admission.budget.tryAcquire(needed)) {
          throw admission.overBudget();
        }
        units += needed;
      }
    }

    void release() {
      if (holders.decrementAndGet() == 0 && admission != null) {
        admission.budget.release(units);
        admission.slots.release();
      }
    }
  }
}

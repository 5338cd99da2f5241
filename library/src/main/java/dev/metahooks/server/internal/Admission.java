package dev.metahooks.server.internal;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who may come in, and what they may hold. Three bounds, each taken only for as long as it is needed:
 * <ul>
 *   <li>the body budget ({@code METAHOOKS_BODY_BUDGET_BYTES}): a call's request bytes, taken before the body is
 *       read (from {@code Content-Length}, or as a chunked body grows) and held while the body is read, computed
 *       and recorded;
 *   <li>a hook slot ({@code METAHOOKS_MAX_CONCURRENT_HOOKS}): taken once the whole body is in, held while the hook
 *       waits for a compute slot and computes, never while a body arrives or an answer is written, so that slow
 *       clients cannot hold the slots;
 *   <li>the answer allowance (the largest answer, {@code METAHOOKS_MAX_RESPONSE_BYTES}): the bytes of answers
 *       being written that are larger than {@link #SMALL}, so that clients that do not read their answers cannot
 *       pile them up in memory. Small answers take none of it: Metacontroller's usual answers are never held up.
 * </ul>
 * A call that finds no room within the admission wait (a fifth of the deadline, so that a burst is absorbed) gets
 * 429 with Retry-After. Bytes are counted in KiB, so that a semaphore holds them.
 */
public final class Admission {
  /** Answers up to this size take no answer allowance: the thread that writes each bounds them. */
  static final long SMALL = 16 * 1024;

  private static final int UNIT = 1024;

  private final Semaphore budget;
  private final Semaphore answers;
  private final Semaphore slots;
  private final long budgetBytes;
  private final long answerBytes;
  private final int slotCount;
  private final Duration wait;

  public Admission(long budgetBytes, long answerBytes, int slots, Duration wait) {
    this.budgetBytes = budgetBytes;
    this.budget = new Semaphore(units(budgetBytes));
    this.answerBytes = answerBytes;
    this.answers = new Semaphore(units(answerBytes));
    this.slotCount = slots;
    this.slots = new Semaphore(slots, true);
    this.wait = wait;
  }

  /** No room in time; the message says for what. */
  static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The body budget for a body of {@code bodyBytes} (what a body of unknown length takes at first: it takes more
   * as it grows), waiting up to the admission wait for room.
   *
   * @throws Refused when there was no room in time
   */
  Bytes body(long bodyBytes) {
    int units = units(bodyBytes);
    if (!acquire(budget, units, System.nanoTime() + wait.toNanos())) {
      throw overBudget();
    }
    return new Bytes(this, budget, units);
  }

  /**
   * A hook slot, waiting up to the admission wait but not past {@code until} (a {@link System#nanoTime}).
   *
   * @throws Refused when none came free in time
   */
  Slot slot(long until) {
    if (!acquire(slots, 1, Math.min(until, System.nanoTime() + wait.toNanos()))) {
      throw new Refused("more than " + slotCount + " hook calls at once; retry after 1 s");
    }
    return new Slot(slots);
  }

  /**
   * The answer allowance for an answer of {@code bytes} about to be written (none for a small one), without
   * waiting: an answer that waited would be held in memory meanwhile. An answer larger than the allowance takes
   * all of it.
   *
   * @throws Refused when there is no room now
   */
  Bytes answer(long bytes) {
    if (bytes <= SMALL) {
      return Bytes.NONE;
    }
    int units = Math.min(units(bytes), units(answerBytes));
    if (!answers.tryAcquire(units)) {
      throw new Refused(
          "answers being written to clients would exceed "
              + answerBytes
              + " bytes (some read "
              + "slowly); retry after 1 s");
    }
    return new Bytes(this, answers, units);
  }

  private Refused overBudget() {
    return new Refused(
        "request bodies in memory would exceed "
            + budgetBytes
            + " bytes (METAHOOKS_BODY_BUDGET_BYTES); retry after 1 s");
  }

  /** Bytes of the body budget in use, for the metrics. */
  public long bytesInUse() {
    return (long) (units(budgetBytes) - budget.availablePermits()) * UNIT;
  }

  private static boolean acquire(Semaphore semaphore, int permits, long until) {
    try {
      return semaphore.tryAcquire(
          permits, Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static int units(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (bytes + UNIT - 1) / UNIT));
  }

  /**
   * Bytes held by a call. They are given back when every holder has let go: the thread that answers the call,
   * and the one that reads its body or the one that computes and records it, which may go on after a deadline
   * answer was written.
   */
  static final class Bytes {
    /** What holds nothing. */
    static final Bytes NONE = new Bytes(null, null, 0);

    private final Admission admission;
    private final Semaphore from;
    private final AtomicInteger holders = new AtomicInteger(1);
    private int units;

    private Bytes(Admission admission, Semaphore from, int units) {
      this.admission = admission;
      this.from = from;
      this.units = units;
    }

    /** One more holder, who must {@link #release} too. */
    Bytes hold() {
      holders.incrementAndGet();
      return this;
    }

    /** One more holder, whose share is given back once, by whichever of those who share it lets go first. */
    Hold holder() {
      hold();
      return new Hold(this);
    }

    /**
     * A body of unknown length has grown to {@code bodyBytes}: takes what it lacks, without waiting (its bytes are
     * arriving already).
     *
     * @throws Refused when the budget has no room for it
     */
    void grow(long bodyBytes) {
      int needed = units(bodyBytes) - units;
      if (needed > 0 && from != null) {
        if (!from.tryAcquire(needed)) {
          throw admission.overBudget();
        }
        units += needed;
      }
    }

    void release() {
      if (holders.decrementAndGet() == 0 && from != null) {
        from.release(units);
      }
    }
  }

  /**
   * One holder's share of a call's bytes, given back once: by the worker when it is done, or by the thread that
   * answers the call when it gives up on the worker at the deadline.
   */
  static final class Hold {
    private final Bytes bytes;
    private final AtomicBoolean released = new AtomicBoolean();

    private Hold(Bytes bytes) {
      this.bytes = bytes;
    }

    void release() {
      if (released.compareAndSet(false, true)) {
        bytes.release();
      }
    }
  }

  /** A hook slot, given back once. */
  static final class Slot {
    private final Semaphore slots;
    private boolean released;

    private Slot(Semaphore slots) {
      this.slots = slots;
    }

    synchronized void release() {
      if (!released) {
        released = true;
        slots.release();
      }
    }
  }
}

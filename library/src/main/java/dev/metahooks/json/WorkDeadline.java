package dev.metahooks.json;

import java.util.function.Supplier;

/**
 * When a call's answer is no longer wanted, for the thread that computes it. Long work (a parse of many tokens, an
 * answer of many children) looks at it between steps and stops once the deadline has passed or the thread has been
 * interrupted (the caller gave up): a call answered 503 at its deadline then gives back what it holds at once
 * instead of finishing for nobody, and Metacontroller's retry finds the room it left.
 */
public final class WorkDeadline {
  private static final ThreadLocal<WorkDeadline> CURRENT = new ThreadLocal<>();

  /** A {@link System#nanoTime}. */
  private final long until;

  private WorkDeadline(long until) {
    this.until = until;
  }

  /** Thrown at the first check past the deadline; the server answers it as a deadline (503). */
  public static final class Passed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Passed() {
      super("the call's deadline passed; its work stopped", null, false, false);
    }
  }

  /** Runs {@code work} on this thread with a deadline of {@code until} (a {@link System#nanoTime}). */
  public static <T> T within(long until, Supplier<T> work) {
    WorkDeadline outer = CURRENT.get();
    CURRENT.set(new WorkDeadline(until));
    try {
      return work.get();
    } finally {
      CURRENT.set(outer);
    }
  }

  /**
   * Stops the work of a call whose deadline has passed or whose thread was interrupted; nothing outside a
   * {@link #within}.
   *
   * @throws Passed then
   */
  public static void check() {
    WorkDeadline deadline = CURRENT.get();
    if (deadline != null
        && (System.nanoTime() - deadline.until > 0 || Thread.currentThread().isInterrupted())) {
      throw new Passed();
    }
  }
}

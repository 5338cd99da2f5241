package dev.metahooks.testsupport;

import java.time.Duration;

/**
 * Waits for a condition instead of sleeping for a guessed time: a test that must see a server in some state
 * polls until it is, up to a deadline generous enough for a loaded machine, and fails naming what it waited for.
 */
public final class Poll {
  /** Long enough for four builds sharing two cores; a condition that holds returns at once. */
  public static final Duration DEADLINE = Duration.ofSeconds(30);

  /**
   * The pause between looks: short at first, since what a test waits for mostly comes within a millisecond or two
   * (a recording written after its answer), then doubled up to {@link #INTERVAL_MILLIS}.
   */
  private static final long FIRST_INTERVAL_MILLIS = 1;

  private static final long INTERVAL_MILLIS = 20;

  private Poll() {}

  /** A condition that may throw while the state is not reached yet (a refused connection, say). */
  public interface Condition {
    boolean holds() throws Exception;
  }

  /** Returns as soon as {@code condition} holds; an {@link AssertionError} naming {@code what} at the deadline. */
  public static void until(String what, Condition condition) throws InterruptedException {
    until(what, DEADLINE, condition);
  }

  public static void until(String what, Duration deadline, Condition condition)
      throws InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    Exception last = null;
    long interval = FIRST_INTERVAL_MILLIS;
    while (true) {
      try {
        if (condition.holds()) {
          return;
        }
        last = null;
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError(
            "waited "
                + deadline.toMillis()
                + " ms for "
                + what
                + (last == null ? "" : "; last error: " + last),
            last);
      }
      Thread.sleep(interval);
      interval = Math.min(2 * interval, INTERVAL_MILLIS);
    }
  }
}

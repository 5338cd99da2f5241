package dev.metahooks.fuzz;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.lifecycle.AroundTryHook;
import net.jqwik.api.lifecycle.Lifespan;
import net.jqwik.api.lifecycle.Store;
import net.jqwik.api.lifecycle.TryExecutionResult;
import net.jqwik.api.lifecycle.TryExecutor;
import net.jqwik.api.lifecycle.TryLifecycleContext;

/**
 * Ends a fuzz property once its budget is spent: {@code -Dfuzz.tries=N} tries, or {@code -Dfuzz.minutes=M}
 * minutes (then tries are unlimited); without either, the short run of the normal test suite.
 */
public final class FuzzBudget implements AroundTryHook {
  /** Tries of the short run: about 500 per controller, some seconds on two busy cores. */
  static final int SHORT_RUN_TRIES = 8000;

  private static final class Budget {
    final long tries;
    final long deadline;
    long spent;

    Budget(long tries, Duration time) {
      this.tries = tries;
      this.deadline = time == null ? Long.MAX_VALUE : System.nanoTime() + time.toNanos();
    }

    boolean exhausted() {
      return spent >= tries || System.nanoTime() >= deadline;
    }
  }

  static Duration time() {
    String minutes = System.getProperty("fuzz.minutes", "");
    return minutes.isBlank()
        ? null
        : Duration.ofSeconds(Math.round(Double.parseDouble(minutes) * 60));
  }

  static long tries() {
    String tries = System.getProperty("fuzz.tries", "");
    if (!tries.isBlank()) {
      return Long.parseLong(tries.trim());
    }
    return time() == null ? SHORT_RUN_TRIES : Long.MAX_VALUE;
  }

  @Override
  public TryExecutionResult aroundTry(
      TryLifecycleContext context, TryExecutor aTry, List<Object> parameters) {
    Budget budget =
        Store.getOrCreate(Budget.class, Lifespan.PROPERTY, () -> new Budget(tries(), time())).get();
    if (budget.exhausted()) {
      return TryExecutionResult.satisfied(true);
    }
    budget.spent++;
    return aTry.execute(parameters);
  }
}

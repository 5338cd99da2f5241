package dev.metahooks.server.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** Says yes at most once per interval, whichever thread asks: for a warning that could otherwise flood the log. */
final class OncePer {
  private final long interval;
  private final LongSupplier nanoClock;
  private final AtomicLong last;

  OncePer(Duration interval) {
    this(interval, System::nanoTime);
  }

  OncePer(Duration interval, LongSupplier nanoClock) {
    this.interval = interval.toNanos();
    this.nanoClock = nanoClock;
    this.last = new AtomicLong(nanoClock.getAsLong() - this.interval);
  }

  /** True for the first call of an interval, false for every other one in it. */
  boolean due() {
    long now = nanoClock.getAsLong();
    long before = last.get();
    return now - before >= interval && last.compareAndSet(before, now);
  }
}

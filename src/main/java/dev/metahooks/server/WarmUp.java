package dev.metahooks.server;

import java.time.Duration;
import java.util.Map;

/**
 * {@code METAHOOKS_WARM_UP_MS}: how long the server serves its training calls ({@link TrainingCalls}) before
 * {@code /readyz} answers ready; 0 turns the warm-up off. A JVM compiles the request path only once it has run
 * often: without a warm-up, the first seconds of traffic after each rollout are served by the interpreter.
 */
public record WarmUp(Duration duration) {
  public static final String VARIABLE = "METAHOOKS_WARM_UP_MS";
  /** Readiness waits this long at most: the kubelet's probes see 503 meanwhile, and a rollout waits. */
  static final Duration LONGEST = Duration.ofSeconds(60);
  public static final WarmUp OFF = new WarmUp(Duration.ZERO);
  public static final WarmUp DEFAULT = new WarmUp(Duration.ofSeconds(5));

  public WarmUp {
    if (duration.isNegative() || duration.compareTo(LONGEST) > 0) {
      throw new ConfigurationException(VARIABLE + " must be 0.." + LONGEST.toMillis() + ", got " + duration.toMillis());
    }
  }

  /** The setting of the environment; {@link #DEFAULT} when unset. */
  public static WarmUp fromEnvironment(Map<String, String> variables) {
    return parse(variables.get(VARIABLE));
  }

  /** A value as the environment gives it: null or blank for the default. */
  static WarmUp parse(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT;
    }
    try {
      return new WarmUp(Duration.ofMillis(Long.parseLong(value.trim())));
    } catch (NumberFormatException e) {
      throw new ConfigurationException(VARIABLE + " must be a number of milliseconds, got '" + value.trim() + "'");
    }
  }

  public boolean enabled() {
    return !duration.isZero();
  }
}

package dev.metahooks.emulator;

import java.time.Duration;

/**
 * How long the emulator waits for a real API server's controllers, scheduler and nodes (KWOK): a world step lasts
 * until nothing changed for {@link #stepQuiet}, and a scenario has settled when a round changed nothing and nothing
 * changes for {@link #settledQuiet} after it (longer than the Job controller's one-second batching of Pod updates).
 * System properties {@code metahooks.kube.stepQuietMillis}, {@code metahooks.kube.settledQuietMillis} and
 * {@code metahooks.kube.stepAtMostSeconds} change them.
 */
final class ServerTiming {
  private ServerTiming() {}

  static Duration stepQuiet() {
    return Duration.ofMillis(Long.getLong("metahooks.kube.stepQuietMillis", 300));
  }

  static Duration settledQuiet() {
    return Duration.ofMillis(Long.getLong("metahooks.kube.settledQuietMillis", 1500));
  }

  static Duration stepAtMost() {
    return Duration.ofSeconds(Long.getLong("metahooks.kube.stepAtMostSeconds", 30));
  }
}

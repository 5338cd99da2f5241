package dev.metahooks.controllers.postgres.spec;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code updates.maintenanceWindows}: when disruptive steps of a rollout (a switchover, the restart of a primary
 * without a replica) may happen. Times are UTC; a window whose end is not after its start ends the next day, and
 * its days are the days it starts on. No windows: always.
 */
public final class MaintenanceWindows {
  /**
   * @param days the days the window starts on (every day when the spec lists none)
   * @param start the time it opens
   * @param end the time it closes (on the next day when not after {@code start})
   */
  public record Window(Set<DayOfWeek> days, LocalTime start, LocalTime end) {
    public Duration length() {
      Duration length = Duration.between(start, end);
      return length.isNegative() || length.isZero() ? length.plusDays(1) : length;
    }
  }

  private MaintenanceWindows() {}

  /** Whether {@code now} is inside one of the windows; true when there are none. */
  public static boolean open(List<Window> windows, Instant now) {
    return windows.isEmpty()
        || windows.stream()
            .anyMatch(
                window ->
                    openings(window, now, 1).stream()
                        .anyMatch(
                            opening ->
                                !now.isBefore(opening)
                                    && now.isBefore(opening.plus(window.length()))));
  }

  /** When the next window opens after {@code now}; empty without windows. */
  public static Optional<Instant> nextOpening(List<Window> windows, Instant now) {
    return windows.stream()
        .flatMap(window -> openings(window, now, 0).stream())
        .filter(now::isBefore)
        .min(Instant::compareTo);
  }

  /** The window's openings from {@code daysBack} days before {@code now} to a week after it. */
  private static List<Instant> openings(Window window, Instant now, int daysBack) {
    LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
    return today
        .minusDays(daysBack)
        .datesUntil(today.plusDays(8))
        .filter(day -> window.days().contains(day.getDayOfWeek()))
        .map(day -> day.atTime(window.start()).toInstant(ZoneOffset.UTC))
        .toList();
  }
}

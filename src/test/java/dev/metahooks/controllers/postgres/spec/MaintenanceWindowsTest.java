package dev.metahooks.controllers.postgres.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaintenanceWindowsTest {
  /** Saturday and Sunday, 01:00 to 03:00 UTC. */
  private static final MaintenanceWindows.Window WEEKEND =
      new MaintenanceWindows.Window(
          EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY), LocalTime.of(1, 0), LocalTime.of(3, 0));

  /** Fridays from 23:00 to 01:00 on Saturday. */
  private static final MaintenanceWindows.Window FRIDAY_NIGHT =
      new MaintenanceWindows.Window(
          EnumSet.of(DayOfWeek.FRIDAY), LocalTime.of(23, 0), LocalTime.of(1, 0));

  @Test
  void withoutWindowsEveryTimeIsOpenAndNothingOpensLater() {
    assertThat(MaintenanceWindows.open(List.of(), at("2026-01-01T12:00:00Z"))).isTrue();
    assertThat(MaintenanceWindows.nextOpening(List.of(), at("2026-01-01T12:00:00Z"))).isEmpty();
  }

  @Test
  void aWindowIsOpenFromItsStartUntilJustBeforeItsEndOnItsDays() {
    List<MaintenanceWindows.Window> windows = List.of(WEEKEND);
    // 2026-01-01 is a Thursday; 2026-01-03 a Saturday.
    assertThat(MaintenanceWindows.open(windows, at("2026-01-01T01:30:00Z"))).isFalse();
    assertThat(MaintenanceWindows.open(windows, at("2026-01-03T00:59:59Z"))).isFalse();
    assertThat(MaintenanceWindows.open(windows, at("2026-01-03T01:00:00Z"))).isTrue();
    assertThat(MaintenanceWindows.open(windows, at("2026-01-04T02:59:59Z"))).isTrue();
    assertThat(MaintenanceWindows.open(windows, at("2026-01-04T03:00:00Z"))).isFalse();
    assertThat(MaintenanceWindows.nextOpening(windows, at("2026-01-01T00:00:00Z")))
        .contains(at("2026-01-03T01:00:00Z"));
    assertThat(MaintenanceWindows.nextOpening(windows, at("2026-01-03T01:00:00Z")))
        .contains(at("2026-01-04T01:00:00Z"));
    assertThat(MaintenanceWindows.nextOpening(windows, at("2026-01-04T03:00:00Z")))
        .contains(at("2026-01-10T01:00:00Z"));
  }

  @Test
  void aWindowEndingBeforeItsStartEndsTheNextDay() {
    List<MaintenanceWindows.Window> windows = List.of(FRIDAY_NIGHT);
    assertThat(MaintenanceWindows.open(windows, at("2026-01-02T22:59:00Z"))).isFalse();
    assertThat(MaintenanceWindows.open(windows, at("2026-01-02T23:00:00Z"))).isTrue();
    assertThat(MaintenanceWindows.open(windows, at("2026-01-03T00:59:00Z")))
        .as("Saturday, in Friday's window")
        .isTrue();
    assertThat(MaintenanceWindows.open(windows, at("2026-01-03T23:30:00Z")))
        .as("Saturday night: not a Friday")
        .isFalse();
    assertThat(MaintenanceWindows.nextOpening(windows, at("2026-01-03T00:30:00Z")))
        .contains(at("2026-01-09T23:00:00Z"));
  }

  @Test
  void theEarliestOfSeveralWindowsOpensNext() {
    List<MaintenanceWindows.Window> windows = List.of(WEEKEND, FRIDAY_NIGHT);
    assertThat(MaintenanceWindows.nextOpening(windows, at("2026-01-01T00:00:00Z")))
        .contains(at("2026-01-02T23:00:00Z"));
  }

  private static Instant at(String time) {
    return Instant.parse(time);
  }
}

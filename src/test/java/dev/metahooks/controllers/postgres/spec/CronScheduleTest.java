package dev.metahooks.controllers.postgres.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronScheduleTest {
  private static Instant last(String schedule, String now) {
    return CronSchedule.parse(schedule).orElseThrow().lastRun(Instant.parse(now)).orElseThrow();
  }

  @Test
  void theLastRunIsAtOrBeforeNow() {
    assertThat(last("30 2 * * *", "2026-12-01T02:30:00Z"))
        .isEqualTo(Instant.parse("2026-12-01T02:30:00Z"));
    assertThat(last("30 2 * * *", "2026-12-01T02:29:59Z"))
        .isEqualTo(Instant.parse("2026-11-30T02:30:00Z"));
    assertThat(last("*/15 * * * *", "2026-12-01T10:44:10Z"))
        .isEqualTo(Instant.parse("2026-12-01T10:30:00Z"));
    assertThat(last("0 1 * * Sun", "2026-12-01T00:00:00Z"))
        .isEqualTo(Instant.parse("2026-11-29T01:00:00Z"));
    assertThat(last("0 1 * * 7", "2026-12-01T00:00:00Z"))
        .isEqualTo(Instant.parse("2026-11-29T01:00:00Z"));
    assertThat(last("0 0 1 jan-mar *", "2026-12-01T00:00:00Z"))
        .isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    // Both day fields restricted: either matches, as in cron.
    assertThat(last("0 0 15 * Mon", "2026-12-01T12:00:00Z"))
        .isEqualTo(Instant.parse("2026-11-30T00:00:00Z"));
  }

  @Test
  void theRunBeforeTheLastBoundsAWholeMissedPeriod() {
    assertThat(
            CronSchedule.parse("30 2 * * *")
                .orElseThrow()
                .runBeforeLast(Instant.parse("2026-12-04T03:00:00Z")))
        .contains(Instant.parse("2026-12-03T02:30:00Z"));
  }

  @Test
  void theNextRunIsStrictlyAfterNow() {
    CronSchedule daily = CronSchedule.parse("30 2 * * *").orElseThrow();
    assertThat(daily.nextRun(Instant.parse("2026-12-01T02:29:59Z")))
        .contains(Instant.parse("2026-12-01T02:30:00Z"));
    assertThat(daily.nextRun(Instant.parse("2026-12-01T02:30:00Z")))
        .contains(Instant.parse("2026-12-02T02:30:00Z"));
    assertThat(
            CronSchedule.parse("0 1 * * Sun")
                .orElseThrow()
                .nextRun(Instant.parse("2026-12-01T00:00:00Z")))
        .contains(Instant.parse("2026-12-06T01:00:00Z"));
    assertThat(
            CronSchedule.parse("*/15 * * * *")
                .orElseThrow()
                .nextRun(Instant.parse("2026-12-31T23:50:00Z")))
        .contains(Instant.parse("2027-01-01T00:00:00Z"));
    assertThat(
            CronSchedule.parse("0 0 31 2 *")
                .orElseThrow()
                .nextRun(Instant.parse("2026-12-01T00:00:00Z")))
        .isEmpty();
  }

  @Test
  void whatIsNotAScheduleIsRefused() {
    for (String bad :
        new String[] {
          "every day",
          "60 * * * *",
          "* 24 * * *",
          "* * 0 * *",
          "* * * 13 *",
          "*/0 * * * *",
          "5-1 * * * *",
          "* * * *",
          "@daily"
        }) {
      assertThat(CronSchedule.parse(bad)).as(bad).isEmpty();
    }
    assertThat(
            CronSchedule.parse("0 0 31 2 *")
                .orElseThrow()
                .lastRun(Instant.parse("2026-12-01T00:00:00Z")))
        .isEmpty();
  }
}

package dev.metahooks.controllers.postgres.spec;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A five-field cron schedule in UTC (minute, hour, day of month, month, day of week; {@code *}, lists, ranges,
 * steps, three-letter names), enough to find when it last fired. As in cron, when both day fields are restricted
 * a day matches either.
 */
public final class CronSchedule {
  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

  /** How far back a run is looked for: beyond a year and a day, no five-field schedule is that sparse. */
  private static final int LOOK_BACK_DAYS = 367;

  private final BitSet minutes;
  private final BitSet hours;
  private final BitSet daysOfMonth;
  private final BitSet months;
  private final BitSet daysOfWeek;
  private final boolean dayOfMonthAny;
  private final boolean dayOfWeekAny;

  private CronSchedule(String[] fields) {
    minutes = field(fields[0], 0, 59, List.of(), 0);
    hours = field(fields[1], 0, 23, List.of(), 0);
    daysOfMonth = field(fields[2], 1, 31, List.of(), 0);
    months = field(fields[3], 1, 12, MONTHS, 1);
    daysOfWeek = field(fields[4], 0, 7, DAYS, 0);
    if (daysOfWeek.get(7)) {
      daysOfWeek.set(0);
    }
    dayOfMonthAny = fields[2].equals("*");
    dayOfWeekAny = fields[4].equals("*");
  }

  /** The schedule, if it reads as five cron fields. */
  public static Optional<CronSchedule> parse(String schedule) {
    String[] fields = schedule.trim().split(" +");
    if (fields.length != 5) {
      return Optional.empty();
    }
    try {
      return Optional.of(new CronSchedule(fields));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The last time at or before {@code now} the schedule fired, if any within a year. */
  public Optional<Instant> lastRun(Instant now) {
    ZonedDateTime day = now.atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS);
    ZonedDateTime limit = now.atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES);
    for (int back = 0; back <= LOOK_BACK_DAYS; back++, day = day.minusDays(1)) {
      if (!months.get(day.getMonthValue()) || !dayMatches(day)) {
        continue;
      }
      for (int hour = 23; hour >= 0; hour--) {
        if (!hours.get(hour)) {
          continue;
        }
        for (int minute = 59; minute >= 0; minute--) {
          ZonedDateTime time = day.withHour(hour).withMinute(minute);
          if (minutes.get(minute) && !time.isAfter(limit)) {
            return Optional.of(time.toInstant());
          }
        }
      }
    }
    return Optional.empty();
  }

  /** The first time after {@code now} the schedule fires, if any within a year. */
  public Optional<Instant> nextRun(Instant now) {
    ZonedDateTime day = now.atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS);
    ZonedDateTime after = now.atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES);
    for (int ahead = 0; ahead <= LOOK_BACK_DAYS; ahead++, day = day.plusDays(1)) {
      if (!months.get(day.getMonthValue()) || !dayMatches(day)) {
        continue;
      }
      for (int hour = 0; hour < 24; hour++) {
        for (int minute = 0; hours.get(hour) && minute < 60; minute++) {
          ZonedDateTime time = day.withHour(hour).withMinute(minute);
          if (minutes.get(minute) && time.isAfter(after)) {
            return Optional.of(time.toInstant());
          }
        }
      }
    }
    return Optional.empty();
  }

  /** The run before the last: a backup older than this has missed a whole period of the schedule. */
  public Optional<Instant> runBeforeLast(Instant now) {
    return lastRun(now).flatMap(last -> lastRun(last.minusSeconds(60)));
  }

  private boolean dayMatches(ZonedDateTime day) {
    boolean dom = daysOfMonth.get(day.getDayOfMonth());
    boolean dow =
        daysOfWeek.get(day.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : day.getDayOfWeek().getValue());
    if (dayOfMonthAny || dayOfWeekAny) {
      return dom && dow;
    }
    return dom || dow;
  }

  private static BitSet field(String text, int min, int max, List<String> names, int nameBase) {
    BitSet set = new BitSet(max + 1);
    for (String part : text.split(",")) {
      int step = 1;
      String range = part;
      int slash = part.indexOf('/');
      if (slash >= 0) {
        step = Integer.parseInt(part.substring(slash + 1));
        range = part.substring(0, slash);
      }
      int from;
      int to;
      if (range.equals("*")) {
        from = min;
        to = max;
      } else {
        String[] bounds = range.split("-", 2);
        from = value(bounds[0], names, nameBase);
        to = bounds.length == 2 ? value(bounds[1], names, nameBase) : slash >= 0 ? max : from;
      }
      if (step < 1 || from < min || to > max || from > to) {
        throw new IllegalArgumentException(part);
      }
      for (int v = from; v <= to; v += step) {
        set.set(v);
      }
    }
    return set;
  }

  private static int value(String text, List<String> names, int nameBase) {
    int index = names.indexOf(text.toUpperCase(Locale.ROOT));
    return index >= 0 ? index + nameBase : Integer.parseInt(text);
  }
}

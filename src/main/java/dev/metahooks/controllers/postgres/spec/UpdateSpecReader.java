package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecFields.oneOf;
import static dev.metahooks.controllers.postgres.spec.SpecFields.required;
import static dev.metahooks.controllers.postgres.spec.SpecFields.stringList;

import dev.metahooks.kube.FieldReader;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads {@code spec.updates}: how a changed pod template rolls out, and the windows a switchover waits for. */
public final class UpdateSpecReader {
  public static final List<String> DAYS = List.of("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun");
  public static final Pattern TIME_OF_DAY = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]");
  public static final int MAX_WINDOWS = 14;

  private UpdateSpecReader() {}

  public static ClusterSpec.Updates read(FieldReader updates) {
    String method = oneOf(updates, "method", "switchover", List.of("switchover", "restart"));
    List<MaintenanceWindows.Window> windows = maintenanceWindows(updates);
    if (!windows.isEmpty() && !method.equals("switchover")) {
      updates.report(
          "maintenanceWindows",
          "needs updates.method switchover: under restart the StatefulSet "
              + "restarts the primary whenever its ordinal comes");
    }
    long maxLag =
        updates
            .optionalInteger("maxLagBytes", 0, ClusterSpec.Updates.MAX_MAX_LAG_BYTES)
            .orElse(ClusterSpec.Updates.DEFAULT_MAX_LAG_BYTES);
    return new ClusterSpec.Updates(method, windows, maxLag);
  }

  private static List<MaintenanceWindows.Window> maintenanceWindows(FieldReader updates) {
    List<FieldReader> given = updates.optionalObjects("maintenanceWindows");
    if (given.size() > MAX_WINDOWS) {
      updates.report("maintenanceWindows", "must have at most " + MAX_WINDOWS + " windows");
    }
    List<MaintenanceWindows.Window> windows = new ArrayList<>();
    for (FieldReader window : given) {
      List<String> days = stringList(window, "days", null, DAYS.size());
      Set<DayOfWeek> weekdays = EnumSet.noneOf(DayOfWeek.class);
      for (int d = 0; d < days.size(); d++) {
        int index = DAYS.indexOf(days.get(d));
        if (index < 0) {
          window
              .problems()
              .add(window.path("days", d), "must be one of " + String.join(", ", DAYS));
        } else {
          weekdays.add(DayOfWeek.of(index + 1));
        }
      }
      Optional<String> start = required(window, "start", TIME_OF_DAY, 5);
      Optional<String> end = required(window, "end", TIME_OF_DAY, 5);
      if (start.isPresent() && start.equals(end)) {
        window.report(
            "end",
            "must differ from start (a window that ends before its start ends the next day)");
      } else if (start.isPresent() && end.isPresent()) {
        windows.add(
            new MaintenanceWindows.Window(
                weekdays.isEmpty() ? EnumSet.allOf(DayOfWeek.class) : weekdays,
                LocalTime.parse(start.get()),
                LocalTime.parse(end.get())));
      }
    }
    return List.copyOf(windows);
  }
}

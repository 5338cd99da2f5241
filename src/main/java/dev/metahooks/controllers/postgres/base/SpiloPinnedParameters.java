package dev.metahooks.controllers.postgres.base;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The reloadable settings that Spilo writes into Patroni's <em>local</em> {@code postgresql.parameters}
 * (postgres-appliance/scripts/configure_spilo.py at 4.0-p3, lines 289-308: the logging settings of its template).
 * Patroni's local parameters win over its dynamic configuration, so {@code PATCH /config} alone never applies them;
 * Spilo merges {@code SPILO_CONFIGURATION} over its template with the user's value winning (configure_spilo.py
 * deep_update, lines 149-162, called at 1142), so the spec's value goes there, into the pod template: a change rolls
 * the pods, as a setting that needs a restart does.
 */
public final class SpiloPinnedParameters {
  public static final Set<String> NAMES =
      Set.of(
          "log_destination",
          "log_directory",
          "log_filename",
          "log_file_mode",
          "log_rotation_age",
          "log_truncate_on_rotation");

  private SpiloPinnedParameters() {}

  /** The given settings Spilo pins, sorted. */
  public static Map<String, String> pinned(Map<String, String> parameters) {
    return parameters.entrySet().stream()
        .filter(e -> NAMES.contains(e.getKey()))
        .collect(
            Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
  }
}

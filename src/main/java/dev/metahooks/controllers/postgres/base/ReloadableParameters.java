package dev.metahooks.controllers.postgres.base;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Which PostgreSQL settings a reload applies (pg_settings.context other than {@code postmaster}), from the list in
 * {@code postgrescluster/reloadable-parameters.txt}. Anything else, an extension's setting included, is taken to
 * need a restart: the safe side, a restart too many rather than a setting silently not applied.
 */
public final class ReloadableParameters {
  private static final Set<String> NAMES = load();

  private ReloadableParameters() {}

  public static boolean reloadable(String name) {
    return NAMES.contains(name);
  }

  /** The settings that need a restart, sorted. */
  public static Map<String, String> restartOnly(Map<String, String> parameters) {
    return parameters.entrySet().stream()
        .filter(e -> !reloadable(e.getKey()))
        .collect(
            Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
  }

  private static Set<String> load() {
    try (InputStream in =
        ReloadableParameters.class.getResourceAsStream(
            "/postgrescluster/reloadable-parameters.txt")) {
      if (in == null) {
        throw new IllegalStateException("postgrescluster/reloadable-parameters.txt is missing");
      }
      return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
          .lines()
          .map(String::strip)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .collect(Collectors.toUnmodifiableSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

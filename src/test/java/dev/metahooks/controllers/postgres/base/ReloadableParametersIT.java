package dev.metahooks.controllers.postgres.base;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.PostgresServer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The list of reloadable settings against a real PostgreSQL's pg_settings. */
class ReloadableParametersIT {
  @Test
  void everySettingAReloadAppliesIsListedAndNoneThatNeedsARestart() {
    PostgresServer server = PostgresServer.shared();
    // Core settings only: an extension's (a dotted name; the test server loads pg_stat_statements)
    // are not listed.
    List<String> reloadable =
        lines(
            server.query(
                "SELECT name FROM pg_settings WHERE context NOT IN ('postmaster',"
                    + " 'internal') AND name NOT LIKE '%.%' ORDER BY name"));
    List<String> restart =
        lines(
            server.query(
                "SELECT name FROM pg_settings WHERE context = 'postmaster' ORDER BY name"));
    assertThat(reloadable).hasSizeGreaterThan(200).allMatch(ReloadableParameters::reloadable);
    assertThat(restart)
        .contains("shared_buffers", "max_connections", "shared_preload_libraries")
        .noneMatch(ReloadableParameters::reloadable);
  }

  private static List<String> lines(String output) {
    return Arrays.stream(output.split("\n")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }
}

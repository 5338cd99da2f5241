package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.postgres.children.pod.ReloadableParameters;
import dev.metahooks.testing.PostgresServer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The list of reloadable settings against a real PostgreSQL's pg_settings. */
class ReloadableParametersTest {
  @Test
  void everySettingAReloadAppliesIsListedAndNoneThatNeedsARestart() {
    PostgresServer server = PostgresServer.shared();
    // Core settings only: an extension's (a dotted name; the test server loads pg_stat_statements) are not listed.
    List<String> reloadable = lines(server.query("SELECT name FROM pg_settings WHERE context NOT IN ('postmaster',"
        + " 'internal') AND name NOT LIKE '%.%' ORDER BY name"));
    List<String> restart = lines(server.query("SELECT name FROM pg_settings WHERE context = 'postmaster' ORDER BY name"));
    assertThat(reloadable).hasSizeGreaterThan(200).allMatch(ReloadableParameters::reloadable);
    assertThat(restart).contains("shared_buffers", "max_connections", "shared_preload_libraries")
        .noneMatch(ReloadableParameters::reloadable);
  }

  @Test
  void extensionSettingsAndUnknownNamesAreTakenToNeedARestart() {
    assertThat(ReloadableParameters.restartOnly(Map.of("work_mem", "8MB", "pg_stat_statements.max", "2000",
        "some_future_setting", "1", "shared_buffers", "1GB")))
        .containsOnlyKeys("pg_stat_statements.max", "some_future_setting", "shared_buffers");
  }

  private static List<String> lines(String output) {
    return Arrays.stream(output.split("\n")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }
}

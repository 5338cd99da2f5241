package dev.metahooks.controllers.postgres.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Settings outside PostgreSQL's core list are taken to need a restart (the list itself: ReloadableParametersIT). */
class ReloadableParametersTest {
  @Test
  void extensionSettingsAndUnknownNamesAreTakenToNeedARestart() {
    assertThat(
            ReloadableParameters.restartOnly(
                Map.of(
                    "work_mem",
                    "8MB",
                    "pg_stat_statements.max",
                    "2000",
                    "some_future_setting",
                    "1",
                    "shared_buffers",
                    "1GB")))
        .containsOnlyKeys("pg_stat_statements.max", "some_future_setting", "shared_buffers");
  }
}

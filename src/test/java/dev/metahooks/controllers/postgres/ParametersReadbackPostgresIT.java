package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * sql/parameters-readback.sql on a real PostgreSQL, as the parameters Job runs it (psql, the superuser, database
 * postgres): it judges the server-wide value, so a setting the superuser or the postgres database has of its own
 * ({@code ALTER ROLE … SET}, {@code ALTER DATABASE … SET}) does not hide that the configuration line was taken.
 */
class ParametersReadbackPostgresIT {
  private static PostgresServer server;

  @BeforeAll
  static void start() {
    server = PostgresServer.startNew();
    server.query("ALTER SYSTEM SET work_mem = '16MB'");
    server.query("SELECT pg_reload_conf()");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!server
            .query(
                "SELECT setting FROM pg_file_settings WHERE name = 'work_mem' ORDER BY seqno DESC LIMIT 1")
            .strip()
            .equals("16MB")
        || !server.query("SHOW work_mem").strip().equals("16MB")) {
      assertThat(System.nanoTime()).as("work_mem reloaded").isLessThan(deadline);
      sleep();
    }
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  static List<String> notApplied(String expected) {
    Path sql =
        Resources.projectDir()
            .resolve("src/main/resources/postgrescluster/sql/parameters-readback.sql");
    Map<String, String> env =
        new HashMap<>(server.environment(PostgresServer.SUPERUSER, "postgres"));
    env.put("PGPASSWORD", server.superuserPassword());
    PostgresServer.Result result =
        PostgresServer.exec(
            List.of(
                server.bin().resolve("psql").toString(),
                "-X",
                "-q",
                "-At",
                "-v",
                "ON_ERROR_STOP=1",
                "-v",
                "expected=" + expected,
                "-f",
                sql.toString()),
            env,
            Duration.ofMinutes(1));
    assertThat(result.exitCode()).as(result.output()).isZero();
    return result.output().lines().filter(line -> !line.isBlank()).toList();
  }

  @Test
  void aValueTheSuperuserOrThePostgresDatabaseSetsForItselfDoesNotHideTheServersValue() {
    assertThat(notApplied("{\"work_mem\": \"16MB\"}")).isEmpty();
    server.query("ALTER ROLE CURRENT_USER SET work_mem = '2MB'");
    server.query("ALTER DATABASE postgres SET work_mem = '3MB'");
    try {
      assertThat(notApplied("{\"work_mem\": \"16MB\"}")).isEmpty();
      assertThat(notApplied("{\"work_mem\": \"32MB\"}"))
          .singleElement()
          .asString()
          .startsWith("work_mem=");
    } finally {
      server.query("ALTER ROLE CURRENT_USER RESET work_mem");
      server.query("ALTER DATABASE postgres RESET work_mem");
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}

package dev.metahooks.controllers.postgres.children.pod;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.RenderedUsersJob;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.access.ServiceRoles;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.LocalDaemon;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.PostgresServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The exporter sidecar as rendered, run for real: the users Job's SQL creates the exporter role in a real
 * PostgreSQL, then Debian's postgres_exporter starts with the sidecar's arguments and environment (the listening
 * address and the server's address pointed at local ones, the role's name and password from the rendered Secret)
 * and reports {@code pg_up 1} with the server's statistics, which only {@code pg_monitor} may read in full.
 */
class ExporterPostgresIT {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static PostgresServer server;
  private static java.nio.file.Path exporter;

  @BeforeAll
  static void start() {
    exporter = LocalDaemon.binary("prometheus-postgres-exporter", "prometheus-postgres-exporter");
    server = PostgresServer.shared();
  }

  @Test
  void theRenderedSidecarScrapesTheServerAsItsPgMonitorRole() throws Exception {
    ObjectNode spec =
        Json.object().put("postgresVersion", Math.min(17, Math.max(13, server.majorVersion())));
    spec.putObject("monitoring").put("enabled", true);
    ObservedRequests world = new ObservedRequests("metrics", spec);
    world.sync();
    RenderedUsersJob.run(world, server);
    assertThat(
            server
                .query(
                    "SELECT string_agg(b.rolname, ',') FROM pg_auth_members m JOIN pg_roles b ON b.oid ="
                        + " m.roleid JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = '"
                        + ServiceRoles.EXPORTER
                        + "'")
                .strip())
        .isEqualTo("pg_monitor");
    assertThat(
            server
                .query(
                    "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls"
                        + " FROM pg_roles WHERE rolname = '"
                        + ServiceRoles.EXPORTER
                        + "'")
                .strip())
        .isEqualTo("f");

    int port = LocalDaemon.freePort();
    JsonNode sidecar = sidecar(world);
    // The image's ENTRYPOINT (its Dockerfile's) runs with the rendered args; here the local binary.
    Kubelet.Container container =
        RenderedContainers.pod(world, world.statefulSet(), List.of())
            .image(sidecar.path("image").asText(), List.of("/bin/postgres_exporter"), List.of())
            .container(Exporters.CONTAINER);
    assertThat(container.unresolvedReferences()).isEmpty();
    List<String> command = new ArrayList<>(container.argv());
    assertThat(command.get(0)).isEqualTo("/bin/postgres_exporter");
    command.set(0, exporter.toString());
    command.replaceAll(
        arg ->
            arg.replace(
                "--web.listen-address=:" + Exporters.PORT,
                "--web.listen-address=127.0.0.1:" + port));
    assertThat(command).contains("--web.listen-address=127.0.0.1:" + port);
    try (LocalDaemon daemon =
        LocalDaemon.start(
            LocalDaemon.directory("exporter", "metrics-"),
            "exporter",
            command,
            environment(container))) {
      daemon.awaitListening(port);
      AtomicReference<String> metrics = new AtomicReference<>("");
      Poll.until(
          "pg_up 1 on /metrics, log:\n" + daemon.log(),
          () -> {
            metrics.set(get("http://127.0.0.1:" + port + "/metrics"));
            return metrics.get().lines().anyMatch(line -> line.equals("pg_up 1"));
          });
      // The metrics docs/postgrescluster/operations.md lists for a primary (Monitoring).
      assertThat(metrics.get())
          .contains(
              "pg_stat_activity_count",
              "pg_settings_max_connections",
              "pg_stat_archiver_failed_count",
              "pg_stat_database_xact_commit",
              "pg_stat_database_xact_rollback",
              "pg_stat_database_deadlocks",
              "pg_settings_autovacuum_freeze_max_age",
              "pg_database_size_bytes");
      // Every query of the default set ran with the role's privileges.
      assertThat(metrics.get().lines()).contains("pg_exporter_last_scrape_error 0");
      // The readiness probe's path answers.
      assertThat(
              get("http://127.0.0.1:" + port + sidecar.at("/readinessProbe/httpGet/path").asText()))
          .isNotEmpty();
    }
  }

  private static JsonNode sidecar(ObservedRequests world) {
    for (JsonNode container : world.statefulSet().at("/spec/template/spec/containers")) {
      if (Exporters.CONTAINER.equals(container.path("name").asText())) {
        return container;
      }
    }
    throw new AssertionError("no exporter sidecar in " + world.statefulSet());
  }

  /** The sidecar's environment as the kubelet builds it; the server's port local. */
  private static Map<String, String> environment(Kubelet.Container container) {
    Map<String, String> env = new HashMap<>(container.environment());
    String uri = env.get("DATA_SOURCE_URI");
    assertThat(uri).startsWith("127.0.0.1:" + Spilo.POSTGRES_PORT + "/");
    env.put(
        "DATA_SOURCE_URI", uri.replace(":" + Spilo.POSTGRES_PORT + "/", ":" + server.port() + "/"));
    assertThat(env.get("DATA_SOURCE_USER")).isEqualTo(ServiceRoles.EXPORTER);
    return env;
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(url).isEqualTo(200);
    return response.body();
  }
}

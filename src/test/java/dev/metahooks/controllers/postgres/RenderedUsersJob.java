package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.jobs.UsersJobs;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PostgresServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The users Job a world's last answer rendered, run against a local PostgreSQL as the kubelet starts it (command
 * line, environment, psql flags); only PGHOST and PGPORT point at the local server, and the superuser's password is
 * the local server's.
 */
public final class RenderedUsersJob {
  private RenderedUsersJob() {}

  public static ObjectNode of(ObservedRequests world) {
    return world.children.entrySet().stream()
        .filter(e -> e.getKey().startsWith("Job/" + world.name + "-users-"))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no users Job in " + world.children.keySet()));
  }

  /**
   * Runs the Job's container as the kubelet starts it (references from the world's Secrets); only PGHOST and PGPORT
   * point at the local server, and the superuser's password is the local server's. Returns the environment the
   * container was given.
   */
  public static Map<String, String> run(ObservedRequests world, PostgresServer server) {
    Map<String, String> env = new HashMap<>();
    PostgresServer.Result result = attempt(world, server, env);
    assertThat(result.exitCode()).as("users Job output:\n%s", result.output()).isZero();
    return env;
  }

  /** Runs the Job's container as {@link #run} does; its exit code and output, for a Job that is meant to fail. */
  public static PostgresServer.Result attempt(ObservedRequests world, PostgresServer server) {
    return attempt(world, server, new HashMap<>());
  }

  private static PostgresServer.Result attempt(
      ObservedRequests world, PostgresServer server, Map<String, String> env) {
    Kubelet.Container container =
        RenderedContainers.of(world, of(world), UsersJobs.CONTAINER, List.of());
    assertThat(container.environment().get("PGHOST"))
        .isEqualTo(Names.serviceHost(Names.primaryService(world.name), ObservedRequests.NAMESPACE));
    // The superuser of the test server; the Job's own comes from <n>-superuser, which Spilo sets.
    Map<String, String> overrides =
        Map.of(
            "PGHOST",
            "127.0.0.1",
            "PGPORT",
            String.valueOf(server.port()),
            "PGPASSWORD",
            server.superuserPassword(),
            "PATH",
            server.bin() + ":" + System.getenv("PATH"));
    PostgresServer.Result result =
        RenderedContainers.run(container, overrides, Duration.ofMinutes(2));
    env.putAll(container.environment());
    env.putAll(overrides);
    return result;
  }
}

package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The users Job a world's last answer rendered, run against a local PostgreSQL exactly as rendered (command line,
 * environment variable names, psql flags); only PGHOST and PGPORT point at the local server, and the superuser's
 * password is the local server's.
 */
final class RenderedUsersJob {
  private RenderedUsersJob() {}

  static ObjectNode of(PostgresWorld world) {
    return world.children.entrySet().stream().filter(e -> e.getKey().startsWith("Job/" + world.name + "-users-")).map(Map.Entry::getValue)
        .findFirst().orElseThrow(() -> new AssertionError("no users Job in " + world.children.keySet()));
  }

  /**
   * Runs the Job's container command with its environment: literal values as they are, secretKeyRef values from
   * the world's Secrets. Returns the environment it ran with.
   */
  static Map<String, String> run(PostgresWorld world, PostgresServer server) {
    JsonNode container = of(world).at("/spec/template/spec/containers/0");
    Map<String, String> env = new HashMap<>();
    for (JsonNode variable : container.path("env")) {
      JsonNode ref = variable.path("valueFrom").path("secretKeyRef");
      String value = ref.isMissingNode()
          ? variable.path("value").asText()
          : Secrets.value(world.children.get("Secret/" + ref.path("name").asText()), ref.path("key").asText())
              .orElseThrow(() -> new AssertionError("no " + ref + " among " + world.children.keySet()));
      env.put(variable.path("name").asText(), value);
    }
    assertThat(env.get("PGHOST")).isEqualTo(Names.serviceHost(Names.primaryService(world.name), PostgresWorld.NAMESPACE));
    env.put("PGHOST", "127.0.0.1");
    env.put("PGPORT", String.valueOf(server.port()));
    // The superuser of the test server; the Job's own comes from <n>-superuser, which Spilo sets.
    env.put("PGPASSWORD", server.superuserPassword());
    env.put("PATH", server.bin() + ":" + System.getenv("PATH"));
    List<String> command = new ArrayList<>();
    container.path("command").forEach(arg -> command.add(arg.asText()));
    PostgresServer.Result result = PostgresServer.exec(command, env, Duration.ofMinutes(2));
    assertThat(result.exitCode()).as("users Job output:\n%s", result.output()).isZero();
    return env;
  }
}

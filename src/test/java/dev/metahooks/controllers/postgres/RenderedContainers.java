package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.S3Server;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rendered container as the kubelet starts it ({@link Kubelet}): references resolved from the world's Secrets
 * and ConfigMaps (and any the user provides), {@code $(NAME)} expanded, {@code $$} reduced. Tests run every rendered
 * script this way, never as the raw strings of the manifest; {@code overrides} are the test's stand-ins for what
 * the cluster gives (hosts, ports, mounted files) and PATH.
 */
public final class RenderedContainers {
  private RenderedContainers() {}

  /** The named container of a Job, CronJob, Deployment or StatefulSet of the world. */
  public static Kubelet.Container of(
      ObservedRequests world, JsonNode owner, String container, List<ObjectNode> userObjects) {
    return container(pod(world, owner, userObjects), podSpec(owner), container);
  }

  /** The named container (or init container) of an object with a pod template, references read from {@code objects}. */
  public static Kubelet.Container of(JsonNode owner, String container, List<ObjectNode> objects) {
    return container(Kubelet.pod(podSpec(owner)).objects(objects), podSpec(owner), container);
  }

  /** The pod of a Job, CronJob, Deployment or StatefulSet of the world, with the world's Secrets and ConfigMaps. */
  public static Kubelet.Pod pod(
      ObservedRequests world, JsonNode owner, List<ObjectNode> userObjects) {
    List<ObjectNode> objects = new ArrayList<>(userObjects);
    world.children.forEach(
        (key, child) -> {
          if (key.startsWith("Secret/") || key.startsWith("ConfigMap/")) {
            objects.add(child);
          }
        });
    return Kubelet.pod(podSpec(owner)).objects(objects);
  }

  private static Kubelet.Container container(Kubelet.Pod pod, JsonNode podSpec, String name) {
    for (JsonNode candidate : podSpec.path("initContainers")) {
      if (candidate.path("name").asText().equals(name)) {
        return pod.initContainer(name);
      }
    }
    return pod.container(name);
  }

  /**
   * Runs the container's process with its environment as the kubelet builds it, plus {@code overrides}; PATH is the
   * test's own unless overridden. Every {@code $(NAME)} of the manifest must have resolved.
   */
  public static PostgresServer.Result run(
      Kubelet.Container container, Map<String, String> overrides, Duration timeout) {
    assertThat(container.unresolvedReferences())
        .as("references the kubelet would leave unresolved")
        .isEmpty();
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.putAll(overrides);
    return PostgresServer.exec(container.argv(), container.environmentWith(env), timeout, false);
  }

  /**
   * The stand-ins for where a backup container connects: the local PostgreSQL, as its superuser, and the local S3
   * API; on the PATH the server's client binaries, then the AWS CLI. A new map, for the test's own additions.
   */
  public static Map<String, String> localStore(PostgresServer server, S3Server s3) {
    Map<String, String> local = new HashMap<>();
    local.put("PGHOST", "127.0.0.1");
    local.put("PGPORT", String.valueOf(server.port()));
    local.put("PGPASSWORD", server.superuserPassword());
    local.put("S3_ENDPOINT", s3.endpoint());
    local.put("PATH", server.bin() + ":" + s3.awsDirectory() + ":" + System.getenv("PATH"));
    return local;
  }

  private static JsonNode podSpec(JsonNode owner) {
    return switch (owner.path("kind").asText()) {
      case "CronJob" -> owner.at("/spec/jobTemplate/spec/template/spec");
      case "Job", "Deployment", "StatefulSet" -> owner.at("/spec/template/spec");
      default -> throw new IllegalArgumentException("no pod template in " + owner.path("kind"));
    };
  }
}

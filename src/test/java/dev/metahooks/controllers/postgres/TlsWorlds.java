package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import dev.metahooks.testsupport.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/** Emulated clusters and answers for the TLS tests: a TLS Secret as cert-manager writes it, a running cluster, and readers of conditions, children and Jobs. */
public final class TlsWorlds {
  public static final String SECRET = "orders-tls";

  private TlsWorlds() {}

  /** A kubernetes.io/tls Secret as cert-manager writes it; {@code change} edits its decoded keys. */
  public static ObjectNode tlsSecret(TestCertificates certs, Consumer<Map<String, String>> change) {
    Map<String, String> keys =
        new TreeMap<>(
            Map.of(
                TlsSpec.CERT,
                certs.pem("server.crt"),
                TlsSpec.KEY,
                certs.pem("server.key"),
                TlsSpec.CA,
                certs.pem("ca.crt")));
    change.accept(keys);
    ObjectNode secret =
        Json.object()
            .put("apiVersion", "v1")
            .put("kind", "Secret")
            .put("type", TlsSpec.SECRET_TYPE);
    secret
        .putObject("metadata")
        .put("name", SECRET)
        .put("namespace", ObservedRequests.NAMESPACE)
        .put("uid", "tls-secret-uid");
    ObjectNode data = secret.putObject("data");
    keys.forEach(
        (key, value) ->
            data.put(
                key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))));
    return secret;
  }

  /** A running three-instance cluster with one user, without TLS. */
  public static ObservedRequests running() {
    ObjectNode spec = Json.object().put("instances", 3);
    spec.putArray("users").addObject().put("name", "shop").putArray("databases").add("shop");
    ObservedRequests world = new ObservedRequests("orders", spec);
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  public static Map<String, String> uids(ObservedRequests world) {
    Map<String, String> uids = new TreeMap<>();
    world.children.forEach(
        (key, child) -> {
          if (!key.startsWith("Job/") && !key.startsWith("NetworkPolicy/")) {
            uids.put(key, child.at("/metadata/uid").asText());
          }
        });
    return uids;
  }

  public static JsonNode condition(JsonNode answer, String type) {
    for (JsonNode condition : answer.at("/status/conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition;
      }
    }
    return Json.object();
  }

  static ObjectNode child(JsonNode answer, String kind, String name) {
    for (JsonNode child : answer.path("children")) {
      if (kind.equals(child.path("kind").asText())
          && name.equals(child.at("/metadata/name").asText())) {
        return (ObjectNode) child;
      }
    }
    throw new AssertionError("no " + kind + " " + name);
  }

  static Map<String, String> env(JsonNode container) {
    Map<String, String> env = new TreeMap<>();
    container
        .path("env")
        .forEach(e -> env.put(e.path("name").asText(), e.path("value").asText(null)));
    return env;
  }

  static JsonNode postgres(JsonNode answer) {
    return child(answer, "StatefulSet", "orders").at("/spec/template/spec/containers/0");
  }

  static List<ObjectNode> jobs(JsonNode answer, String component) {
    List<ObjectNode> jobs = new ArrayList<>();
    for (JsonNode child : answer.path("children")) {
      if ("Job".equals(child.path("kind").asText())
          && component.equals(child.at("/metadata/labels").path(Labels.COMPONENT).asText())) {
        jobs.add((ObjectNode) child);
      }
    }
    return jobs;
  }

  static ObjectNode customize(ObservedRequests world) {
    ObjectNode request = Json.object();
    request.set("controller", ObservedRequests.controller("v2"));
    request.set("parent", world.parent());
    return request;
  }
}

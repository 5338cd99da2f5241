package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import dev.metahooks.testing.kube.KubeApi;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The requests the emulator's {@link ServerStore} makes of a real API server, in raw JSON over the kit's
 * {@link KubeApi}: objects go out and come back exactly as the server reads and stores them, and a refusal becomes an
 * {@link ApiException} with the server's own message, as the in-memory store throws one. Paths come from the
 * cluster's {@link ApiResources}, so no discovery is needed.
 */
final class ServerCalls {
  private final KubeApi api;

  ServerCalls(KubeApi api) {
    this.api = api;
  }

  /** {@code /api/v1/namespaces/ns/pods/name} and the like; an empty namespace or name is left out. */
  static String path(String apiVersion, ApiResources.Type type, String namespace, String name) {
    StringBuilder path =
        new StringBuilder(apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion);
    if (type.namespaced() && !namespace.isEmpty()) {
      path.append("/namespaces/").append(namespace);
    }
    path.append('/').append(type.plural());
    if (!name.isEmpty()) {
      path.append('/').append(name);
    }
    return path.toString();
  }

  Optional<ObjectNode> get(String path) {
    KubeApi.Answer answer = api.call("GET", path, null);
    if (answer.code() == 404) {
      return Optional.empty();
    }
    return Optional.of(body(answer, "GET " + path));
  }

  /** The items of a list, each with the list's apiVersion and the kind (a list's items carry neither). */
  List<ObjectNode> list(String path, String apiVersion, String kind) {
    List<ObjectNode> items = new ArrayList<>();
    for (JsonNode item : body(api.call("GET", path, null), "GET " + path).path("items")) {
      ObjectNode object = (ObjectNode) item;
      object.put("apiVersion", apiVersion);
      object.put("kind", kind);
      items.add(object);
    }
    return items;
  }

  ObjectNode create(String collectionPath, ObjectNode object, String fieldManager) {
    return body(
        api.call("POST", collectionPath + manager(fieldManager), object), "POST " + collectionPath);
  }

  ObjectNode replace(String path, ObjectNode object, String fieldManager) {
    return body(api.call("PUT", path + manager(fieldManager), object), "PUT " + path);
  }

  ObjectNode replaceStatus(String path, ObjectNode object, String fieldManager) {
    return body(
        api.call("PUT", path + "/status" + manager(fieldManager), object),
        "PUT " + path + "/status");
  }

  /**
   * DELETE with a propagation policy and an optional uid precondition; the answer is the object when it stays
   * (finalizers, a grace period) or a Status once it is gone.
   */
  ObjectNode delete(String path, String propagationPolicy, String uid) {
    ObjectNode options = Trees.object().put("apiVersion", "v1").put("kind", "DeleteOptions");
    if (propagationPolicy != null) {
      options.put("propagationPolicy", propagationPolicy);
    }
    if (uid != null) {
      options.putObject("preconditions").put("uid", uid);
    }
    return body(api.call("DELETE", path, options), "DELETE " + path);
  }

  /** The field manager the server records for a write: who wrote, as the emulator's log says it. */
  private static String manager(String fieldManager) {
    return fieldManager == null
        ? ""
        : "?fieldManager=" + URLEncoder.encode(fieldManager, StandardCharsets.UTF_8);
  }

  private static ObjectNode body(KubeApi.Answer answer, String request) {
    if (!answer.ok()) {
      throw error(answer, request);
    }
    return answer.body() instanceof ObjectNode object ? object : Trees.object();
  }

  /** The server's Status as an ApiException: its reason for the branches a client takes, its message as it is. */
  private static ApiException error(KubeApi.Answer answer, String request) {
    String reason = answer.body().path("reason").asText("");
    String message =
        answer.message().isEmpty() ? request + ": HTTP " + answer.code() : answer.message();
    Reason mapped =
        switch (answer.code()) {
          case 404 -> Reason.NOT_FOUND;
          case 409 -> reason.equals("AlreadyExists") ? Reason.ALREADY_EXISTS : Reason.CONFLICT;
          case 422 -> Reason.INVALID;
          case 403 -> Reason.FORBIDDEN;
          case 400 -> Reason.BAD_REQUEST;
          default -> Reason.SERVER_ERROR;
        };
    return new ApiException(mapped, message);
  }
}

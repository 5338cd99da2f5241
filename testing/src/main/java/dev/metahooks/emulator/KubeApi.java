package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real API server's REST interface in raw JSON, through the fabric8 client's authenticated HTTP client: objects
 * go out and come back exactly as the server reads and stores them (explicit nulls, unknown fields and all), with
 * no typed model in between. Errors become {@link ApiException}s with the server's own message.
 */
final class KubeApi {
  private static final String JSON = "application/json";
  private static final long TIMEOUT_SECONDS = 30;

  private final KubernetesClient client;
  private final HttpClient http;
  private final String base;

  KubeApi(KubernetesClient client) {
    this.client = client;
    this.http = client.getHttpClient();
    String url = client.getMasterUrl().toString();
    this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  KubernetesClient client() {
    return client;
  }

  /** {@code /api/v1/namespaces/ns/pods/name} and the like; an empty namespace or name is left out. */
  static String path(String apiVersion, ApiResources.Type type, String namespace, String name) {
    StringBuilder path = new StringBuilder(apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion);
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
    try {
      return Optional.of(send("GET", path, null));
    } catch (ApiException e) {
      if (e.is(Reason.NOT_FOUND)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** The items of a list, each with the list's apiVersion and the kind (a list's items carry neither). */
  List<ObjectNode> list(String path, String apiVersion, String kind) {
    ObjectNode answer = send("GET", path, null);
    List<ObjectNode> items = new ArrayList<>();
    for (JsonNode item : answer.path("items")) {
      ObjectNode object = (ObjectNode) item;
      object.put("apiVersion", apiVersion);
      object.put("kind", kind);
      items.add(object);
    }
    return items;
  }

  ObjectNode create(String collectionPath, ObjectNode object, String fieldManager) {
    return send("POST", collectionPath + manager(fieldManager), object);
  }

  ObjectNode replace(String path, ObjectNode object, String fieldManager) {
    return send("PUT", path + manager(fieldManager), object);
  }

  ObjectNode replaceStatus(String path, ObjectNode object, String fieldManager) {
    return send("PUT", path + "/status" + manager(fieldManager), object);
  }

  /** A JSON merge patch, for the clean-up after a test. */
  ObjectNode mergePatch(String path, ObjectNode patch) {
    return send("PATCH", path, patch, "application/merge-patch+json");
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
    return send("DELETE", path, options);
  }

  private static String manager(String fieldManager) {
    return fieldManager == null ? "" : "?fieldManager=" + URLEncoder.encode(fieldManager, StandardCharsets.UTF_8);
  }

  private ObjectNode send(String method, String path, ObjectNode body) {
    return send(method, path, body, JSON);
  }

  private ObjectNode send(String method, String path, ObjectNode body, String contentType) {
    HttpRequest.Builder request = http.newHttpRequestBuilder().uri(base + path).header("Accept", JSON)
        .timeout(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (body == null) {
      request.method(method, null, (String) null);
    } else {
      request.method(method, contentType, Trees.compact(body));
    }
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request.build(), String.class).get(TIMEOUT_SECONDS + 5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method + " " + path + " interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(method + " " + path + " failed: " + e.getMessage(), e);
    }
    JsonNode answer = parse(response.body());
    if (!response.isSuccessful()) {
      throw error(response.code(), answer, method + " " + path);
    }
    return answer instanceof ObjectNode object ? object : Trees.object();
  }

  private static JsonNode parse(String body) {
    if (body == null || body.isBlank()) {
      return Trees.object();
    }
    try {
      return Trees.MAPPER.readTree(body);
    } catch (IOException e) {
      return Trees.object().put("message", body);
    }
  }

  /** The server's Status as an ApiException: its reason for the branches a client takes, its message as it is. */
  private static ApiException error(int code, JsonNode status, String request) {
    String reason = status.path("reason").asText("");
    String message = status.path("message").asText(request + ": HTTP " + code);
    Reason mapped = switch (code) {
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

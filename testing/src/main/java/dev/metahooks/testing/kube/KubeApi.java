package dev.metahooks.testing.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The API server's REST interface with JSON trees as they are on the wire: what a request sends is exactly what the
 * server reads (no typed model drops an empty map or a field it does not know on the way), and what it answers is
 * exactly what it stored. Kinds are found by discovery, so any built-in or custom kind the server serves works.
 */
public final class KubeApi {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;
  private final String server;
  private final Map<String, Resource> resources = new ConcurrentHashMap<>();

  /** A client of the server {@code client} talks to, with its identity. */
  public KubeApi(KubernetesClient client) {
    this.http = client.getHttpClient();
    this.server = client.getMasterUrl().toString().replaceAll("/+$", "");
  }

  /** An answer of the API server: its status code and body (a Kubernetes object or a {@code Status}). */
  public record Answer(int code, JsonNode body) {
    public boolean ok() {
      return code >= 200 && code < 300;
    }

    /** The server's message for a refusal, or the empty string. */
    public String message() {
      return body.path("message").asText("");
    }

    /** The body, once the call succeeded; otherwise an error naming the code and the server's message. */
    public JsonNode orThrow() {
      if (!ok()) {
        throw new IllegalStateException("the API server answered " + code + ": " + body);
      }
      return body;
    }
  }

  /** How the server names a kind's collection, and whether it is namespaced. */
  public record Resource(String base, String plural, boolean namespaced) {
    /** The URL path of the collection in {@code namespace} (ignored for a cluster-scoped kind), or of one object. */
    public String path(String namespace, String name) {
      StringBuilder path = new StringBuilder(base);
      if (namespaced) {
        if (namespace == null || namespace.isEmpty()) {
          throw new IllegalArgumentException(
              plural + " are namespaced: the API server refuses one without a namespace");
        }
        path.append("/namespaces/").append(encode(namespace));
      }
      path.append('/').append(plural);
      if (name != null) {
        path.append('/').append(encode(name));
      }
      return path.toString();
    }
  }

  /** The kind {@code kind} of {@code apiVersion}, found by discovery (and remembered). */
  public Resource resource(String apiVersion, String kind) {
    String key = apiVersion + "/" + kind;
    Resource known = resources.get(key);
    if (known != null) {
      return known;
    }
    String base = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
    Answer list = call("GET", base, null);
    if (list.ok()) {
      for (JsonNode resource : list.body().path("resources")) {
        if (resource.path("kind").asText().equals(kind)
            && !resource.path("name").asText().contains("/")) {
          Resource found =
              new Resource(
                  base, resource.path("name").asText(), resource.path("namespaced").asBoolean());
          resources.put(key, found);
          return found;
        }
      }
    }
    throw new IllegalArgumentException(
        "the API server serves no kind " + kind + " in " + apiVersion);
  }

  /** The resource of an object's kind. */
  public Resource resource(JsonNode object) {
    return resource(object.path("apiVersion").asText(), object.path("kind").asText());
  }

  /**
   * Creates {@code object} in {@code namespace} (ignored for cluster-scoped kinds), or only runs it through
   * admission, validation and defaulting when {@code dryRun}: the answer is then the object as it would be stored.
   */
  public Answer create(JsonNode object, String namespace, boolean dryRun) {
    String query = dryRun ? "?dryRun=All" : "";
    return call("POST", resource(object).path(namespace, null) + query, object);
  }

  /** Reads one object; a 404 answer if it does not exist. */
  public Answer get(String apiVersion, String kind, String namespace, String name) {
    return call("GET", resource(apiVersion, kind).path(namespace, name), null);
  }

  /** Replaces one object (its {@code metadata.resourceVersion} guards against a lost update). */
  public Answer update(JsonNode object) {
    return call(
        "PUT",
        resource(object).path(namespace(object), object.at("/metadata/name").asText()),
        object);
  }

  /** Server-side apply of {@code object} by {@code fieldManager}. */
  public Answer apply(JsonNode object, String fieldManager) {
    String path =
        resource(object).path(namespace(object), object.at("/metadata/name").asText())
            + "?fieldManager="
            + encode(fieldManager);
    return call("PATCH", path, object, "application/apply-patch+yaml");
  }

  /** Deletes one object with the given propagation policy ({@code Foreground}, {@code Background}, {@code Orphan}). */
  public Answer delete(
      String apiVersion, String kind, String namespace, String name, String propagation) {
    ObjectNode options =
        JSON.createObjectNode()
            .put("kind", "DeleteOptions")
            .put("apiVersion", "v1")
            .put("propagationPolicy", propagation);
    return call("DELETE", resource(apiVersion, kind).path(namespace, name), options);
  }

  /** Any request: {@code body} (or none) as JSON. */
  public Answer call(String method, String path, JsonNode body) {
    return call(method, path, body, "application/json");
  }

  /**
   * Any request with a body of the given content type: a patch as {@code application/merge-patch+json} or
   * {@code application/strategic-merge-patch+json}, as the client being played sends it.
   */
  public Answer call(String method, String path, JsonNode body, String contentType) {
    try {
      HttpRequest.Builder request = http.newHttpRequestBuilder().uri(server + path);
      if (body != null) {
        request.method(method, contentType, JSON.writeValueAsString(body));
      } else if (!method.equals("GET")) {
        request.method(method, contentType, "");
      }
      HttpResponse<byte[]> response = http.sendAsync(request.build(), byte[].class).get();
      byte[] bytes = response.body();
      JsonNode answer =
          bytes == null || bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
      return new Answer(response.code(), answer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(method + " " + path + " failed", e.getCause());
    }
  }

  private static String namespace(JsonNode object) {
    return object.at("/metadata/namespace").asText("default");
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}

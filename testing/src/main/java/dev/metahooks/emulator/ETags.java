package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * The ETag cache of one hook executor, as Metacontroller keeps it (pkg/hooks/webhook_etag.go): one entry per
 * root object of a request ({@code parent}, or {@code object} for decorators) by kind, namespace and name, so
 * all revisions of one parent share it. Entries do not expire here (cacheTimeoutSeconds is not emulated).
 */
final class ETags {
  /** An ETag and the body it was sent with. */
  record Entry(String etag, String body) {}

  private final Map<String, Entry> entries = new HashMap<>();

  /** {@code kind/namespace/name} of the request's root object (webhook_etag.go getKeyFromObject). */
  static String key(JsonNode request) {
    JsonNode root = request.has("object") ? request.get("object") : request.path("parent");
    JsonNode metadata = root.path("metadata");
    return root.path("kind").asText()
        + "/"
        + metadata.path("namespace").asText()
        + "/"
        + metadata.path("name").asText();
  }

  Entry get(String key) {
    return entries.get(key);
  }

  void put(String key, Entry entry) {
    entries.put(key, entry);
  }
}

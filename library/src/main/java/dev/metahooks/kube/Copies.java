package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Copies of a related ConfigMap or Secret under the same name in other namespaces: the content only, never
 * the source's metadata (labels, owners, resourceVersion), so a copy is the same on every sync.
 */
public final class Copies {
  private Copies() {}

  /** A related object to copy, with the request path that names it in error messages. */
  public record Source(ObjectMap.Entry entry, String path) {
    public String name() {
      return entry.name();
    }
  }

  /** The related object of this type with this namespace and name, if Metacontroller sent it. */
  public static Optional<Source> find(
      ObjectMap related, String apiVersion, String kind, String namespace, String name) {
    String group = ObjectMap.groupKey(apiVersion, kind);
    return related.entries(apiVersion, kind).stream()
        .filter(e -> e.namespace().equals(namespace) && e.name().equals(name))
        .findFirst()
        .map(e -> new Source(e, "related['" + group + "']['" + e.key() + "']"));
  }

  /** A ConfigMap in {@code namespace} with the source's {@code data} and {@code binaryData} (each when present). */
  public static ObjectNode configMap(Source source, String namespace) {
    return configMaps(source, List.of(namespace)).get(0);
  }

  /** A Secret in {@code namespace} with the source's {@code data} (when present); its type is not copied. */
  public static ObjectNode secret(Source source, String namespace) {
    return secrets(source, List.of(namespace)).get(0);
  }

  /**
   * {@link #configMap} for each namespace, in order. The content is read once and shared by the copies, which
   * must not change it ({@link PathCopies}).
   */
  public static List<ObjectNode> configMaps(Source source, List<String> namespaces) {
    return copies(source, "ConfigMap", namespaces, "data", "binaryData");
  }

  /** {@link #secret} for each namespace, in order, sharing the content as {@link #configMaps} does. */
  public static List<ObjectNode> secrets(Source source, List<String> namespaces) {
    return copies(source, "Secret", namespaces, "data");
  }

  private static List<ObjectNode> copies(
      Source source, String kind, List<String> namespaces, String... fields) {
    if (namespaces.isEmpty()) {
      return List.of(); // no copy, so the content is never read (nor refused)
    }
    ObjectNode content = Json.object();
    for (String field : fields) {
      copyStringMap(source, field, content);
    }
    List<ObjectNode> copies = new ArrayList<>(namespaces.size());
    for (String namespace : namespaces) {
      copies.add(header(kind, source.name(), namespace).setAll(content));
    }
    return copies;
  }

  private static ObjectNode header(String kind, String name, String namespace) {
    ObjectNode object = Json.object().put("apiVersion", "v1").put("kind", kind);
    object.putObject("metadata").put("name", name).put("namespace", namespace);
    return object;
  }

  private static void copyStringMap(Source source, String field, ObjectNode copy) {
    JsonNode value = source.entry().object().get(field);
    if (value != null && !value.isNull()) {
      copy.set(field, StringMaps.copy(value, source.path() + "." + field));
    }
  }
}

package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
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
  public static Optional<Source> find(ObjectMap related, String apiVersion, String kind, String namespace,
      String name) {
    String group = ObjectMap.groupKey(apiVersion, kind);
    return related.entries(apiVersion, kind).stream()
        .filter(e -> e.namespace().equals(namespace) && e.name().equals(name))
        .findFirst()
        .map(e -> new Source(e, "related['" + group + "']['" + e.key() + "']"));
  }

  /** A ConfigMap in {@code namespace} with the source's {@code data} and {@code binaryData} (each when present). */
  public static ObjectNode configMap(Source source, String namespace) {
    ObjectNode copy = header("ConfigMap", source.name(), namespace);
    copyStringMap(source, "data", copy);
    copyStringMap(source, "binaryData", copy);
    return copy;
  }

  /** A Secret in {@code namespace} with the source's {@code data} (when present); its type is not copied. */
  public static ObjectNode secret(Source source, String namespace) {
    ObjectNode copy = header("Secret", source.name(), namespace);
    copyStringMap(source, "data", copy);
    return copy;
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

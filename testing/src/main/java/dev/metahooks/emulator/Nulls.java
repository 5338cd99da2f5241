package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Explicit JSON {@code null}s: what a real API server stores in their place, and where an object has them.
 *
 * <p>No API server stores a {@code null} the way a hook wrote it. Built-in kinds are decoded into Go structs: a
 * {@code null} pointer, slice, map or string field is left unset and not written back, and a {@code null}
 * value of a {@code map[string]string} (labels, annotations, ConfigMap data, …) becomes {@code ""}. Custom
 * resources go through their structural schema: Kubernetes'
 * {@code apiextensions-apiserver/pkg/apiserver/schema/defaulting/prunenulls.go}
 * ({@code PruneNonNullableNullsWithoutDefaults}) drops a {@code null} where the schema says neither
 * {@code nullable: true} nor a {@code default}, and leaves it where nothing in the schema describes the field;
 * their metadata is ObjectMeta, decoded like a built-in kind's.
 *
 * <p>Metacontroller's desired children keep their {@code null}s through the three-way merge
 * ({@code pkg/dynamic/apply/apply.go:107-110} takes the desired value, {@code null} included), so
 * {@code reflect.DeepEqual} against the stored object never holds: {@code Recreate} children are recreated on
 * every sync and {@code InPlace} ones updated on every sync.
 */
final class Nulls {
  /** {@code map[string]string} fields anywhere in the built-in kinds (ObjectMeta and Pod templates included). */
  private static final Set<String> STRING_MAPS =
      Set.of("labels", "annotations", "matchLabels", "nodeSelector");

  /** Top-level {@code map[string]string} / {@code map[string][]byte} fields of ConfigMaps and Secrets. */
  private static final Set<String> DATA_MAPS = Set.of("data", "binaryData", "stringData");

  private Nulls() {}

  /**
   * Changes {@code object} into what the API server stores for it.
   *
   * @param crd the CustomResourceDefinition of the object's kind, or null for a built-in kind (or a kind
   *     registered without a CRD, whose nulls are kept as nothing describes them)
   * @param builtIn whether the kind is one of Kubernetes' own
   */
  static void asStored(ObjectNode object, JsonNode crd, boolean builtIn) {
    if (builtIn) {
      typed(object, rootContext(object));
      return;
    }
    if (object.get("metadata") instanceof ObjectNode metadata) {
      typed(metadata, Context.OTHER);
    }
    JsonNode schema = schemaOf(crd, Meta.apiVersion(object));
    if (schema != null) {
      for (String field : Trees.fieldNames(object)) {
        if (!field.equals("metadata")) {
          prune(object, field, propertySchema(schema, field));
        }
      }
    }
  }

  /** The JSON paths of every explicit {@code null} in the object, e.g. {@code spec.template.metadata.labels.tier}. */
  static List<String> paths(JsonNode node) {
    List<String> paths = new ArrayList<>();
    collect("", node, paths);
    return paths;
  }

  private static void collect(String path, JsonNode node, List<String> paths) {
    if (node == null) {
      return;
    }
    if (node.isNull()) {
      paths.add(path.isEmpty() ? "(object)" : path);
    } else if (node.isObject()) {
      for (String field : Trees.fieldNames(node)) {
        collect(path.isEmpty() ? field : path + "." + field, node.get(field), paths);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(path + "[" + i + "]", node.get(i), paths);
      }
    }
  }

  // ---- built-in kinds: Go structs

  private enum Context {
    OTHER,
    STRING_MAP,
    CONFIG_ROOT,
    SERVICE_SPEC
  }

  private static Context rootContext(ObjectNode object) {
    String kind = Meta.kind(object);
    return Meta.apiVersion(object).equals("v1")
            && (kind.equals("ConfigMap") || kind.equals("Secret"))
        ? Context.CONFIG_ROOT
        : Context.OTHER;
  }

  private static void typed(JsonNode node, Context context) {
    if (node instanceof ObjectNode object) {
      for (String field : Trees.fieldNames(object)) {
        JsonNode value = object.get(field);
        if (value.isNull()) {
          if (context == Context.STRING_MAP) {
            object.set(field, TextNode.valueOf(""));
          } else {
            object.remove(field);
          }
        } else {
          typed(value, contextOf(object, field, context));
        }
      }
    } else if (node instanceof ArrayNode array) {
      boolean strings = false;
      for (JsonNode item : array) {
        strings |= item.isTextual();
      }
      for (int i = 0; i < array.size(); i++) {
        if (array.get(i).isNull()) {
          // A null item of a []string is "", of a []struct the zero struct.
          array.set(i, strings ? TextNode.valueOf("") : Trees.object());
        } else {
          typed(array.get(i), Context.OTHER);
        }
      }
    }
  }

  private static Context contextOf(ObjectNode parent, String field, Context context) {
    if (context == Context.STRING_MAP) {
      return Context.OTHER;
    }
    if (STRING_MAPS.contains(field)
        || (context == Context.CONFIG_ROOT && DATA_MAPS.contains(field))
        || (context == Context.SERVICE_SPEC && field.equals("selector"))) {
      return Context.STRING_MAP;
    }
    // Service and ReplicationController: spec.selector is a map[string]string, not a LabelSelector.
    if (field.equals("spec")
        && parent.path("apiVersion").asText().equals("v1")
        && Set.of("Service", "ReplicationController").contains(parent.path("kind").asText())) {
      return Context.SERVICE_SPEC;
    }
    return Context.OTHER;
  }

  // ---- custom resources: prunenulls.go

  static JsonNode schemaOf(JsonNode crd, String apiVersion) {
    if (crd == null) {
      return null;
    }
    String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
    JsonNode fallback = null;
    for (JsonNode v : crd.path("spec").path("versions")) {
      JsonNode schema = v.path("schema").get("openAPIV3Schema");
      if (schema != null && v.path("name").asText().equals(version)) {
        return schema;
      }
      fallback = fallback == null ? schema : fallback;
    }
    return fallback;
  }

  /** getSchemaForField: the property's schema, else additionalProperties when it is a schema, else none. */
  private static JsonNode propertySchema(JsonNode schema, String field) {
    if (schema == null) {
      return null;
    }
    JsonNode property = schema.path("properties").get(field);
    if (property != null) {
      return property;
    }
    JsonNode additional = schema.get("additionalProperties");
    return additional != null && additional.isObject() ? additional : null;
  }

  private static void prune(ObjectNode parent, String field, JsonNode schema) {
    JsonNode value = parent.get(field);
    if (value.isNull()) {
      if (schema != null && !schema.path("nullable").asBoolean(false) && !schema.has("default")) {
        parent.remove(field);
      }
      return;
    }
    pruneInside(value, schema);
  }

  private static void pruneInside(JsonNode value, JsonNode schema) {
    if (schema == null) {
      return;
    }
    if (value instanceof ObjectNode object) {
      for (String field : Trees.fieldNames(object)) {
        prune(object, field, propertySchema(schema, field));
      }
    } else if (value instanceof ArrayNode array) {
      // Null items are not pruned (validation refuses them); objects inside items are.
      JsonNode items = schema.get("items");
      for (JsonNode item : array) {
        pruneInside(item, items);
      }
    }
  }
}

package dev.metahooks.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code children}, {@code attachments} and {@code related} maps of a hook request, read the same way
 * whatever the hook version: by apiVersion and kind, then namespace and name.
 *
 * <p>On the wire the outer key is {@code Kind.version} (core group) or {@code Kind.group/version}, and the
 * inner key depends on the hook version and scopes (docs/metacontroller.md, section 4). Each object's namespace is taken
 * from its metadata, or else from the key; a key that contradicts the object is refused, because it means
 * the request was built for another hook version.
 *
 * <p>What Metacontroller never sends is refused too, because a hook would read it as "nothing exists" and answer
 * with children deleted or regenerated: a group that is {@code null}, and, for a namespaced parent, an object
 * outside the parent's namespace where Metacontroller only sends that namespace (children and attachments
 * always: it lists them in the parent's namespace; related objects in v1, whose request drops the others).
 */
public final class ObjectMap {
  /** One observed object with its resolved identity; namespace is "" for cluster-scoped objects. */
  public record Entry(String key, String namespace, String name, ObjectNode object) {}

  /** Which objects a map holds, and so what Metacontroller guarantees about them. */
  private enum Role {
    /** Children or attachments: a group for every declared type, all in a namespaced parent's namespace. */
    OWNED,
    /** Objects chosen by the customize hook: only groups of evaluated rules; v2 may cross namespaces. */
    RELATED
  }

  private final String field;
  private final boolean everyGroupSent;
  private final Map<String, List<Entry>> groups;

  /** Built on first lookup, so a hook that only lists pays nothing for it. */
  private final Map<String, Map<String, Entry>> indexes = new ConcurrentHashMap<>();

  private ObjectMap(String field, boolean everyGroupSent, Map<String, List<Entry>> groups) {
    this.field = field;
    this.everyGroupSent = everyGroupSent;
    this.groups = groups;
  }

  /** The outer key Metacontroller uses for objects of this apiVersion and kind. */
  public static String groupKey(String apiVersion, String kind) {
    return kind + "." + apiVersion;
  }

  /** Reads {@code children} or {@code attachments}; {@code parentNamespace} is "" for a cluster-scoped parent. */
  static ObjectMap readOwned(
      JsonNode node, String field, HookVersion version, String parentNamespace) {
    return read(node, field, Role.OWNED, version, parentNamespace);
  }

  /** Reads {@code related}; {@code parentNamespace} is "" for a cluster-scoped parent. */
  static ObjectMap readRelated(
      JsonNode node, String field, HookVersion version, String parentNamespace) {
    return read(node, field, Role.RELATED, version, parentNamespace);
  }

  private static ObjectMap read(
      JsonNode node, String field, Role role, HookVersion version, String parentNamespace) {
    // Only the parent's namespace: Metacontroller lists owned objects there, and v1 drops related
    // ones elsewhere.
    String onlyNamespace =
        !parentNamespace.isEmpty() && (role == Role.OWNED || version == HookVersion.V1)
            ? parentNamespace
            : null;
    Map<String, List<Entry>> groups = new LinkedHashMap<>();
    if (node != null && !node.isNull()) {
      ObjectNode outer = Fields.asObject(node, field);
      for (Map.Entry<String, JsonNode> group : outer.properties()) {
        String groupPath = field + "['" + group.getKey() + "']";
        if (group.getValue().isNull()) {
          throw new InvalidRequestException(
              groupPath,
              "is null; Metacontroller sends every group as an object, {} when it is empty");
        }
        ObjectNode inner = Fields.asObject(group.getValue(), groupPath);
        List<Entry> entries = new ArrayList<>(inner.size());
        for (Map.Entry<String, JsonNode> item : inner.properties()) {
          Entry entry = entry(item.getKey(), item.getValue(), groupPath, version, parentNamespace);
          if (onlyNamespace != null) {
            requireNamespace(entry, onlyNamespace, groupPath, role);
          }
          entries.add(entry);
        }
        groups.put(group.getKey(), Collections.unmodifiableList(entries));
      }
    }
    return new ObjectMap(field, role == Role.OWNED, groups);
  }

  /** An object of a namespaced parent that must say, in its metadata, that it is in the parent's namespace. */
  private static void requireNamespace(
      Entry entry, String parentNamespace, String groupPath, Role role) {
    JsonNode declared = entry.object().get("metadata").get("namespace");
    if (declared != null && parentNamespace.equals(declared.textValue())) {
      return;
    }
    String found =
        declared == null || declared.isNull() || declared.textValue().isEmpty()
            ? "is missing"
            : "is '" + declared.textValue() + "'";
    String why =
        role == Role.OWNED
            ? "Metacontroller sends a namespaced parent only children in its own namespace '"
                + parentNamespace
                + "'"
            : "hook version v1 sends a namespaced parent only related objects in its own namespace '"
                + parentNamespace
                + "'";
    throw new InvalidRequestException(
        groupPath + "['" + entry.key() + "'].metadata.namespace", found + "; " + why);
  }

  /** One object of a group; the field path of an error message is only built for an error. */
  private static Entry entry(
      String key, JsonNode value, String groupPath, HookVersion version, String parentNamespace) {
    ObjectNode object = Fields.hasIdentity(value) ? (ObjectNode) value : null;
    if (object == null) {
      String path = groupPath + "['" + key + "']";
      Fields.requireIdentity(Fields.asObject(value, path), path);
      throw new IllegalStateException(
          "an object without identity passed the identity check at " + path);
    }
    JsonNode metadata = object.get("metadata");
    String name = metadata.get("name").textValue();
    JsonNode declared = metadata.get("namespace");
    int slash = key.indexOf('/');
    String namespace;
    if (declared != null && declared.isTextual()) {
      namespace = declared.textValue();
    } else if (slash >= 0) {
      namespace = key.substring(0, slash);
    } else if (version == HookVersion.V1 && !parentNamespace.isEmpty()) {
      namespace = parentNamespace; // v1 sends a namespaced parent only objects of its own namespace
    } else {
      namespace = "";
    }
    if (!isExpectedKey(key, version, parentNamespace, namespace, name)
        || !keyNameIs(key, slash, name)) {
      String expected = key(version, parentNamespace, namespace, name);
      throw new InvalidRequestException(
          groupPath + "['" + key + "']",
          "key does not match hook version "
              + version.name().toLowerCase()
              + " for object "
              + (namespace.isEmpty() ? name : namespace + "/" + name)
              + " (expected '"
              + expected
              + "')");
    }
    return new Entry(key, namespace, name, object);
  }

  /** Whether the part of the key after its first slash (or the whole key) is {@code name}. */
  private static boolean keyNameIs(String key, int slash, String name) {
    return key.length() - slash - 1 == name.length() && key.startsWith(name, slash + 1);
  }

  /**
   * The inner key Metacontroller uses for an object of {@code namespace} ("" when cluster-scoped) under a parent of
   * {@code parentNamespace} ("" when cluster-scoped) (docs/metacontroller.md, section 4).
   */
  public static String key(
      HookVersion version, String parentNamespace, String namespace, String name) {
    if (namespace.isEmpty()) {
      return name;
    }
    if (version == HookVersion.V1
        && !parentNamespace.isEmpty()
        && namespace.equals(parentNamespace)) {
      return name;
    }
    return namespace + "/" + name;
  }

  /** {@code key.equals(key(...))}, without building the expected key. */
  private static boolean isExpectedKey(
      String key, HookVersion version, String parentNamespace, String namespace, String name) {
    if (namespace.isEmpty()
        || (version == HookVersion.V1
            && !parentNamespace.isEmpty()
            && namespace.equals(parentNamespace))) {
      return key.equals(name);
    }
    return key.length() == namespace.length() + 1 + name.length()
        && key.startsWith(namespace)
        && key.charAt(namespace.length()) == '/'
        && key.endsWith(name);
  }

  /** The objects of one type, in the order the request listed them. */
  public List<ObjectNode> list(String apiVersion, String kind) {
    return entries(apiVersion, kind).stream().map(Entry::object).toList();
  }

  /** The objects of one type with their identities, in the order the request listed them. */
  public List<Entry> entries(String apiVersion, String kind) {
    String key = groupKey(apiVersion, kind);
    List<Entry> entries = groups.get(key);
    if (entries == null) {
      if (everyGroupSent) {
        throw new InvalidRequestException(
            field + "['" + key + "']",
            "is missing; Metacontroller sends every declared type, empty or not");
      }
      return List.of();
    }
    return entries;
  }

  /**
   * The objects of one type whose group the request must carry, even where the map's role does not demand it: a
   * related type the customize hook asked for. Metacontroller starts a group for every rule before it lists the
   * objects (pkg/controller/common/customize/manager.go:603, 618, 656, 673 at v4.17.2), so a missing group means a
   * malformed request, not "none exist".
   *
   * @throws InvalidRequestException when the group is missing
   */
  public List<Entry> required(String apiVersion, String kind, String why) {
    String key = groupKey(apiVersion, kind);
    if (!groups.containsKey(key)) {
      throw new InvalidRequestException(field + "['" + key + "']", "is missing; " + why);
    }
    return groups.get(key);
  }

  /** The object of this type with this namespace ("" for cluster-scoped) and name. */
  public Optional<ObjectNode> get(String apiVersion, String kind, String namespace, String name) {
    entries(apiVersion, kind); // a missing required group is an error here too
    Map<String, Entry> index = indexes.computeIfAbsent(groupKey(apiVersion, kind), this::index);
    Entry entry = index.get(namespace + "/" + name);
    return entry == null ? Optional.empty() : Optional.of(entry.object());
  }

  private Map<String, Entry> index(String groupKey) {
    Map<String, Entry> index = new HashMap<>();
    for (Entry entry : groups.getOrDefault(groupKey, List.of())) {
      index.put(entry.namespace() + "/" + entry.name(), entry);
    }
    return index;
  }

  /** The wire keys of one type, as sent (v1 or v2 form). */
  public List<String> keys(String apiVersion, String kind) {
    return entries(apiVersion, kind).stream().map(Entry::key).toList();
  }

  public int count(String apiVersion, String kind) {
    return entries(apiVersion, kind).size();
  }

  /** Whether the request carried a group for this type at all. */
  public boolean has(String apiVersion, String kind) {
    return groups.containsKey(groupKey(apiVersion, kind));
  }

  /** Every group key of the request, in order. */
  public List<String> groupKeys() {
    return List.copyOf(groups.keySet());
  }
}

package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.HookVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Objects grouped as Metacontroller groups them internally (a "uniform object map", docs/metacontroller.md, section 4):
 * outer key {@code Kind.apiVersion}, inner key {@code namespace/name} or {@code name}. {@link #toWire} turns
 * it into a request's {@code children}, {@code attachments} or {@code related} for a hook version. Keys are
 * sorted, as Go writes map keys.
 */
final class ObjectGroups {
  private final TreeMap<String, TreeMap<String, ObjectNode>> groups = new TreeMap<>();

  static String groupKey(String apiVersion, String kind) {
    return kind + "." + apiVersion;
  }

  static String uniformKey(String namespace, String name) {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /** Makes the group appear even if it stays empty (declared child types always do). */
  void init(String apiVersion, String kind) {
    groups.computeIfAbsent(groupKey(apiVersion, kind), k -> new TreeMap<>());
  }

  /** Adds an object under the given apiVersion (it is sent in that version); last one wins. */
  void put(String apiVersion, ObjectNode object) {
    ObjectNode copy = Trees.copy(object);
    copy.put("apiVersion", apiVersion);
    groups
        .computeIfAbsent(groupKey(apiVersion, Meta.kind(copy)), k -> new TreeMap<>())
        .put(uniformKey(Meta.namespace(copy), Meta.name(copy)), copy);
  }

  /** Adds an object under an explicit uniform key (for desired objects whose scope the caller resolved). */
  void putKeyed(String key, ObjectNode object) {
    groups
        .computeIfAbsent(groupKey(Meta.apiVersion(object), Meta.kind(object)), k -> new TreeMap<>())
        .put(key, object);
  }

  Map<String, TreeMap<String, ObjectNode>> groups() {
    return groups;
  }

  ObjectNode find(String groupKey, String key) {
    TreeMap<String, ObjectNode> group = groups.get(groupKey);
    return group == null ? null : group.get(key);
  }

  /** An object by API group (version ignored), kind, namespace and name. */
  ObjectNode find(String apiGroup, String kind, String namespace, String name) {
    for (TreeMap<String, ObjectNode> group : groups.values()) {
      for (ObjectNode object : group.values()) {
        if (Meta.kind(object).equals(kind)
            && ApiResources.group(Meta.apiVersion(object)).equals(apiGroup)
            && Meta.name(object).equals(name)
            && Meta.namespace(object).equals(namespace)) {
          return object;
        }
      }
    }
    return null;
  }

  /**
   * An object by API group (version ignored), kind and inner key, as Metacontroller's
   * {@code UniformObjectMap.FindGroupKindName} looks one up: a bare name finds only cluster-scoped objects,
   * since namespaced ones are keyed {@code namespace/name}.
   */
  ObjectNode findByKey(String apiGroup, String kind, String key) {
    for (TreeMap<String, ObjectNode> group : groups.values()) {
      ObjectNode object = group.get(key);
      if (object != null
          && Meta.kind(object).equals(kind)
          && ApiResources.group(Meta.apiVersion(object)).equals(apiGroup)) {
        return object;
      }
    }
    return null;
  }

  List<ObjectNode> all() {
    List<ObjectNode> all = new ArrayList<>();
    groups.values().forEach(g -> all.addAll(g.values()));
    return all;
  }

  /**
   * The map as a hook of this version receives it. v2 keeps the uniform keys. v1 keys objects relative to
   * the parent: for a namespaced parent only objects of its own namespace are sent, by name (others,
   * cluster-scoped ones included, are dropped, but their group stays); for a cluster-scoped parent the keys
   * are the uniform ones.
   */
  ObjectNode toWire(HookVersion version, String parentNamespace) {
    ObjectNode wire = Trees.object();
    groups.forEach(
        (groupKey, objects) -> {
          ObjectNode group = wire.putObject(groupKey);
          objects.forEach(
              (key, object) -> {
                if (version == HookVersion.V1 && !parentNamespace.isEmpty()) {
                  if (Meta.namespace(object).equals(parentNamespace)) {
                    group.set(Meta.name(object), Trees.sorted(object));
                  }
                } else {
                  group.set(key, Trees.sorted(object));
                }
              });
        });
    return wire;
  }
}

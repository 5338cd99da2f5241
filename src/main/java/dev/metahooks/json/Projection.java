package dev.metahooks.json;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a controller's hooks never read of the observed objects of some types, as dotted field paths per group key
 * ({@code Kind.apiVersion}): {@code Pod.v1 → spec, metadata.managedFields}. Those fields are skipped while the
 * request is parsed, so they are never built into the tree (a third to two thirds of a Pod).
 */
public final class Projection {
  public static final Projection NONE = new Projection(Map.of());
  private static final List<String> READ_BY_THE_WIRE_MODEL =
      List.of("apiVersion", "kind", "metadata.name", "metadata.namespace");

  /** Field names to skip at one level, and the levels below that skip something. */
  static final class Level {
    final Map<String, Level> below = new HashMap<>();
    /** Skipped whole. */
    boolean skipped;

    Level child(String name) {
      return below.get(name);
    }
  }

  private final Map<String, Level> groups;

  private Projection(Map<String, Level> groups) {
    this.groups = groups;
  }

  public boolean isEmpty() {
    return groups.isEmpty();
  }

  /** The same, with {@code paths} of the objects of {@code groupKey} skipped too. */
  public Projection without(String groupKey, String... paths) {
    Map<String, Level> copy = new HashMap<>(groups);
    Level root = copy.computeIfAbsent(groupKey, k -> new Level());
    for (String path : paths) {
      if (READ_BY_THE_WIRE_MODEL.stream().anyMatch(read -> read.equals(path) || read.startsWith(path + ".")
          || path.startsWith(read + "."))) {
        throw new IllegalArgumentException("cannot skip '" + path + "': the wire model reads every object's "
            + String.join(", ", READ_BY_THE_WIRE_MODEL));
      }
      Level at = root;
      for (String name : path.split("\\.")) {
        at = at.below.computeIfAbsent(name, k -> new Level());
      }
      at.skipped = true;
    }
    return new Projection(Collections.unmodifiableMap(copy));
  }

  /** What to skip in an object of this group; null when nothing. */
  Level of(String groupKey) {
    return groups.get(groupKey);
  }
}

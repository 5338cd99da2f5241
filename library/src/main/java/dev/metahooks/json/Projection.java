package dev.metahooks.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a controller's hooks read of the observed objects of some types, as field paths per group key
 * ({@code Kind.apiVersion}): {@code Pod.v1 → status.phase, metadata.annotations['example.com/hash']}. Everything
 * else of those objects is skipped while the request is parsed, so it never becomes a node or a string (most of a
 * Pod); objects of the types not named are parsed whole.
 *
 * <p>A path is field names joined by dots; a name with dots in it (an annotation key) goes in brackets,
 * {@code metadata.annotations['a.example.com/b']}. A path through an array applies to each of its elements; a
 * value that is not an object where the path goes on is kept as it is, so a projection only ever leaves out
 * fields of objects.
 */
public final class Projection {
  public static final Projection NONE = new Projection(Map.of());

  /** Read of every object by the wire model (its identity and its namespace checks): always kept. */
  private static final List<String> READ_BY_THE_WIRE_MODEL =
      List.of("apiVersion", "kind", "metadata.name", "metadata.namespace");

  /** What is kept of an object: each kept field with what is kept of it. */
  static final class Level {
    /** A value kept whole. */
    static final Level WHOLE = new Level(null);

    /** Null for {@link #WHOLE}. */
    private final Map<String, Level> fields;

    private Level(Map<String, Level> fields) {
      this.fields = fields;
    }

    /** What is kept of field {@code name}: {@link #WHOLE}, a level, or null when it is skipped. */
    Level field(String name) {
      return fields == null ? this : fields.get(name);
    }

    boolean whole() {
      return fields == null;
    }
  }

  /** The declared paths, as names, per group key; the levels are built from them. */
  private final Map<String, List<List<String>>> paths;

  private final Map<String, Level> levels = new HashMap<>();

  private Projection(Map<String, List<List<String>>> paths) {
    this.paths = paths;
    paths.forEach((group, names) -> levels.put(group, level(names)));
  }

  /** The projection that keeps of each group's objects the paths given for it ({@code group key -> paths}). */
  public static Projection of(Map<String, List<String>> reads) {
    Projection projection = NONE;
    for (Map.Entry<String, List<String>> group : reads.entrySet()) {
      projection = projection.reading(group.getKey(), group.getValue().toArray(String[]::new));
    }
    return projection;
  }

  public boolean isEmpty() {
    return paths.isEmpty();
  }

  /**
   * The same, with the objects of {@code groupKey} kept only in {@code paths} (and what the wire model reads);
   * a second call for one group adds its paths to the first's.
   *
   * @throws IllegalArgumentException for a path that names no field
   */
  public Projection reading(String groupKey, String... paths) {
    Map<String, List<List<String>>> copy = new LinkedHashMap<>(this.paths);
    List<List<String>> names = new ArrayList<>(copy.getOrDefault(groupKey, wireModel()));
    for (String path : paths) {
      names.add(names(path));
    }
    copy.put(groupKey, List.copyOf(names));
    return new Projection(Collections.unmodifiableMap(copy));
  }

  /** What to keep of an object of this group; null when it is kept whole. */
  Level of(String groupKey) {
    return levels.get(groupKey);
  }

  private static List<List<String>> wireModel() {
    return READ_BY_THE_WIRE_MODEL.stream().map(Projection::names).toList();
  }

  /** The tree of kept fields; a path kept whole covers every longer path it starts. */
  private static Level level(List<List<String>> paths) {
    Level root = new Level(new HashMap<>());
    for (List<String> path : paths) {
      Level at = root;
      for (int i = 0; i < path.size() - 1 && !at.whole(); i++) {
        at = at.fields.computeIfAbsent(path.get(i), name -> new Level(new HashMap<>()));
      }
      if (!at.whole()) {
        at.fields.put(path.get(path.size() - 1), Level.WHOLE);
      }
    }
    return root;
  }

  /** {@code a.b['c.d'].e} → a, b, c.d, e. */
  static List<String> names(String path) {
    List<String> names = new ArrayList<>();
    int at = 0;
    while (at < path.length()) {
      int end;
      if (path.charAt(at) == '[') {
        boolean quoted = path.startsWith("'", at + 1);
        int close = path.indexOf(quoted ? "']" : "]", at + 1);
        if (close < 0) {
          throw invalid(path, "an unclosed '['");
        }
        names.add(path.substring(at + (quoted ? 2 : 1), close));
        end = close + (quoted ? 2 : 1);
      } else {
        end = at;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        names.add(path.substring(at, end));
      }
      if (names.get(names.size() - 1).isEmpty()) {
        throw invalid(path, "an empty field name");
      }
      if (end < path.length() && path.charAt(end) == '.') {
        end++;
        if (end == path.length()) {
          throw invalid(path, "a trailing '.'");
        }
      } else if (end < path.length() && path.charAt(end) != '[') {
        throw invalid(path, "'" + path.charAt(end) + "' after ']' (a '.' or '[' goes there)");
      }
      at = end;
    }
    if (names.isEmpty()) {
      throw invalid(path, "no field name");
    }
    return List.copyOf(names);
  }

  private static IllegalArgumentException invalid(String path, String problem) {
    return new IllegalArgumentException("field path '" + path + "' has " + problem);
  }
}

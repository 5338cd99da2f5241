package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Path-level differences of two objects, for messages that must say what changed. */
final class JsonDiff {
  private static final int MAX_VALUE = 120;

  private JsonDiff() {}

  /** Lines {@code path: old -> new}; resourceVersion is left out (it changes with every write). */
  static List<String> changes(JsonNode before, JsonNode after) {
    List<String> changes = new ArrayList<>();
    diff("", before, after, changes);
    changes.removeIf(line -> line.startsWith("metadata.resourceVersion:"));
    return changes;
  }

  private static void diff(String path, JsonNode a, JsonNode b, List<String> out) {
    boolean aAbsent = a == null || a.isMissingNode();
    boolean bAbsent = b == null || b.isMissingNode();
    // An explicit null is not an absent field here: the API server stores the one and not the
    // other.
    if (aAbsent == bAbsent && Trees.same(a, b) && (aAbsent || a.isNull() == b.isNull())) {
      return;
    }
    if (a != null && b != null && a.isObject() && b.isObject()) {
      Set<String> keys = new TreeSet<>(Trees.fieldNames(a));
      keys.addAll(Trees.fieldNames(b));
      for (String key : keys) {
        diff(path.isEmpty() ? key : path + "." + key, a.get(key), b.get(key), out);
      }
      return;
    }
    if (a != null && b != null && a.isArray() && b.isArray() && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        diff(path + "[" + i + "]", a.get(i), b.get(i), out);
      }
      return;
    }
    out.add((path.isEmpty() ? "(object)" : path) + ": " + show(a) + " -> " + show(b));
  }

  private static String show(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "(absent)";
    }
    String text = node.toString();
    return text.length() > MAX_VALUE ? text.substring(0, MAX_VALUE) + "…" : text;
  }
}

package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The leaves two JSON values differ in, each by its path ({@code spec.template.spec.containers[0].image}). */
final class PathDiff {
  /** One difference; {@code before} or {@code after} is null where the path is absent on that side. */
  record Change(String path, JsonNode before, JsonNode after) {}

  private PathDiff() {}

  static List<Change> between(JsonNode before, JsonNode after) {
    List<Change> changes = new ArrayList<>();
    diff("", absentAsNull(before), absentAsNull(after), changes);
    return changes;
  }

  private static void diff(String path, JsonNode a, JsonNode b, List<Change> out) {
    if (a == null && b == null || a != null && a.equals(b) || sameNumber(a, b)) {
      return;
    }
    if (a != null && b != null && a.isObject() && b.isObject()) {
      Set<String> keys = new TreeSet<>();
      a.fieldNames().forEachRemaining(keys::add);
      b.fieldNames().forEachRemaining(keys::add);
      for (String key : keys) {
        diff(path.isEmpty() ? key : path + "." + key, absentAsNull(a.get(key)), absentAsNull(b.get(key)), out);
      }
      return;
    }
    if (a != null && b != null && a.isArray() && b.isArray()) {
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        diff(path + "[" + i + "]", absentAsNull(a.get(i)), absentAsNull(b.get(i)), out);
      }
      return;
    }
    JsonNode aJson = embeddedJson(a);
    JsonNode bJson = embeddedJson(b);
    if (aJson != null && bJson != null) { // a configuration held as JSON text: its own paths say more
      diff(path + "(json)", aJson, bJson, out);
      return;
    }
    out.add(new Change(path.isEmpty() ? "(whole)" : path, a, b));
  }

  /** 41 read back from a recording is an int node, the hook's 41 may be a long one: the wire shows no difference. */
  private static boolean sameNumber(JsonNode a, JsonNode b) {
    return a != null && b != null && a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0;
  }

  /** A string that holds a JSON object (Patroni's configuration in an environment variable, say), or null. */
  private static JsonNode embeddedJson(JsonNode node) {
    if (node == null || !node.isTextual() || !node.textValue().startsWith("{")) {
      return null;
    }
    try {
      JsonNode parsed = JsonTrees.MAPPER.readTree(node.textValue());
      return parsed != null && parsed.isObject() ? parsed : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /**
   * {@code observed} cut down to the paths {@code desired} sets: what a server-side merge compares, so that fields
   * the API server added (uid, defaults, status) are not reported as changes. Arrays are compared whole.
   */
  static JsonNode restrictedTo(JsonNode observed, JsonNode desired) {
    if (observed == null || desired == null || !observed.isObject() || !desired.isObject()) {
      return observed;
    }
    var copy = observed.deepCopy();
    Iterator<String> names = copy.fieldNames();
    List<String> drop = new ArrayList<>();
    names.forEachRemaining(name -> {
      if (!desired.has(name)) {
        drop.add(name);
      }
    });
    var object = (com.fasterxml.jackson.databind.node.ObjectNode) copy;
    object.remove(drop);
    desired.fieldNames().forEachRemaining(name -> {
      if (object.has(name)) {
        object.set(name, restrictedTo(object.get(name), desired.get(name)));
      }
    });
    return object;
  }

  private static JsonNode absentAsNull(JsonNode node) {
    return node == null || node.isMissingNode() ? null : node;
  }
}

package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The leaves two JSON values differ in, each by its path ({@code spec.template.spec.containers[0].image}), each
 * marked when it may show a Secret's value.
 */
final class PathDiff {
  /** The fields of a Secret that hold its values: data, and annotations (a last-applied one holds the whole Secret). */
  private static final List<String> SECRET_FIELDS =
      List.of("data", "stringData", "metadata.annotations");

  /**
   * One difference; {@code before} or {@code after} is null where the path is absent on that side; {@code secret}
   * when either side may hold a Secret's value, which a report must not show.
   */
  record Change(String path, JsonNode before, JsonNode after, boolean secret) {}

  private PathDiff() {}

  static List<Change> between(JsonNode before, JsonNode after) {
    List<Change> changes = new ArrayList<>();
    JsonNode a = absentAsNull(before);
    JsonNode b = absentAsNull(after);
    diff("", "", a, b, changes, isSecret(a, b), false);
    return changes;
  }

  /**
   * {@code path} is where the pair is in the whole value, {@code inDocument} where it is in the JSON document it
   * belongs to (the value, or a JSON text within it), {@code secretDocument} whether that document is a Secret and
   * {@code secret} whether everything below is a Secret's.
   */
  private static void diff(
      String path,
      String inDocument,
      JsonNode a,
      JsonNode b,
      List<Change> out,
      boolean secretDocument,
      boolean secret) {
    if (a == null && b == null || a != null && a.equals(b) || sameNumber(a, b)) {
      return;
    }
    boolean below =
        secret
            || secretDocument
                && SECRET_FIELDS.stream().anyMatch(field -> within(inDocument, field));
    if (a != null && b != null && a.isObject() && b.isObject()) {
      Set<String> keys = new TreeSet<>();
      a.fieldNames().forEachRemaining(keys::add);
      b.fieldNames().forEachRemaining(keys::add);
      for (String key : keys) {
        diff(
            join(path, key),
            join(inDocument, key),
            absentAsNull(a.get(key)),
            absentAsNull(b.get(key)),
            out,
            secretDocument,
            below);
      }
      return;
    }
    if (a != null && b != null && a.isArray() && b.isArray()) {
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        diff(
            path + "[" + i + "]",
            inDocument + "[" + i + "]",
            absentAsNull(a.get(i)),
            absentAsNull(b.get(i)),
            out,
            secretDocument,
            below);
      }
      return;
    }
    JsonNode aJson = embeddedObject(a);
    JsonNode bJson = embeddedObject(b);
    if (aJson != null
        && bJson != null) { // a configuration held as JSON text: its own paths say more
      boolean secretJson = SecretText.holdsSecret(aJson) || SecretText.holdsSecret(bJson);
      diff(path + "(json)", "", aJson, bJson, out, isSecret(aJson, bJson), below || secretJson);
      return;
    }
    out.add(
        new Change(
            path.isEmpty() ? "(whole)" : path,
            a,
            b,
            below || SecretText.mayHoldSecret(a) || SecretText.mayHoldSecret(b)));
  }

  private static boolean within(String path, String field) {
    return path.equals(field) || path.startsWith(field + ".") || path.startsWith(field + "[");
  }

  private static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static boolean isSecret(JsonNode a, JsonNode b) {
    return a != null && Objects.isSecret(a) || b != null && Objects.isSecret(b);
  }

  /** 41 read back from a recording is an int node, the hook's 41 may be a long one: the wire shows no difference. */
  private static boolean sameNumber(JsonNode a, JsonNode b) {
    return a != null
        && b != null
        && a.isNumber()
        && b.isNumber()
        && a.decimalValue().compareTo(b.decimalValue()) == 0;
  }

  /** A string that holds a JSON object (Patroni's configuration in an environment variable, say), or null. */
  private static JsonNode embeddedObject(JsonNode node) {
    JsonNode parsed = SecretText.embedded(node);
    return parsed != null && parsed.isObject() ? parsed : null;
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
    names.forEachRemaining(
        name -> {
          if (!desired.has(name)) {
            drop.add(name);
          }
        });
    var object = (com.fasterxml.jackson.databind.node.ObjectNode) copy;
    object.remove(drop);
    desired
        .fieldNames()
        .forEachRemaining(
            name -> {
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

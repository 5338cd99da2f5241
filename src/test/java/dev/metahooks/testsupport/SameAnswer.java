package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * "The same answer" for a drop-in replacement of an upstream hook, as the upstream-answers README defines it:
 * JSON meaning, not bytes (key order ignored, numbers compared numerically); {@code children} and
 * {@code attachments} compared as sets keyed by apiVersion, kind, namespace and name unless their order
 * matters (duplicates collapse, last wins, as in Metacontroller); null and absent alike only for the top-level
 * resyncAfterSeconds, finalized, labels, annotations and status. Returns the differences, empty when the answers are the same.
 *
 * <p>One deviation from that README, for the objects of {@code children} and {@code attachments}: an empty list and
 * an absent field are the same. A real API server stores neither (GoldenChildrenKubeIT: a ClusterRole's
 * {@code rules: []} comes back as {@code null}), so both are the same object on a cluster, and a hook that sends the
 * empty list makes Metacontroller update the child on every sync.
 */
public final class SameAnswer {
  private static final Set<String> NULLABLE_TOP_LEVEL =
      Set.of("resyncAfterSeconds", "finalized", "labels", "annotations", "status");
  private static final Set<String> OBJECT_LISTS = Set.of("children", "attachments");

  private SameAnswer() {}

  public static List<String> differences(
      JsonNode expected, JsonNode actual, boolean childOrderMatters) {
    List<String> diffs = new ArrayList<>();
    if (!expected.isObject() || !actual.isObject()) {
      compare("$", expected, actual, diffs);
      return diffs;
    }
    Set<String> keys = new TreeSet<>();
    expected.fieldNames().forEachRemaining(keys::add);
    actual.fieldNames().forEachRemaining(keys::add);
    for (String key : keys) {
      JsonNode e = expected.get(key);
      JsonNode a = actual.get(key);
      boolean eAbsent = e == null || e.isNull();
      boolean aAbsent = a == null || a.isNull();
      if (NULLABLE_TOP_LEVEL.contains(key) && eAbsent && aAbsent) {
        continue;
      }
      if (OBJECT_LISTS.contains(key)
          && !childOrderMatters
          && e != null
          && a != null
          && e.isArray()
          && a.isArray()) {
        compareAsSet("$." + key, e, a, diffs);
      } else {
        compare("$." + key, e, a, diffs);
      }
    }
    return diffs;
  }

  private static void compareAsSet(
      String path, JsonNode expected, JsonNode actual, List<String> diffs) {
    Map<String, JsonNode> e = byIdentity(expected);
    Map<String, JsonNode> a = byIdentity(actual);
    // Metacontroller collapses duplicate desired objects (last wins), so the recorded answer may
    // have them;
    // an answer that adds duplicates the recorded one lacks is still a difference.
    if (a.size() != actual.size() && e.size() == expected.size()) {
      diffs.add(
          path
              + ": duplicate objects (expected "
              + expected.size()
              + ", actual "
              + actual.size()
              + ")");
    }
    Set<String> ids = new TreeSet<>(e.keySet());
    ids.addAll(a.keySet());
    for (String id : ids) {
      compare(path + "[" + id + "]", e.get(id), a.get(id), diffs);
    }
  }

  private static Map<String, JsonNode> byIdentity(JsonNode list) {
    Map<String, JsonNode> byId = new TreeMap<>();
    for (JsonNode object : list) {
      JsonNode metadata = object.path("metadata");
      byId.put(
          object.path("apiVersion").asText()
              + " "
              + object.path("kind").asText()
              + " "
              + metadata.path("namespace").asText("")
              + "/"
              + metadata.path("name").asText(),
          object);
    }
    return byId;
  }

  private static void compare(String path, JsonNode expected, JsonNode actual, List<String> diffs) {
    if (expected == null || actual == null) {
      if (expected != actual) {
        diffs.add(
            path
                + ": expected "
                + (expected == null ? "absent" : expected)
                + " but was "
                + (actual == null ? "absent" : shorten(actual)));
      }
      return;
    }
    if (expected.isNumber() && actual.isNumber()) {
      if (expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
        diffs.add(path + ": expected " + expected + " but was " + actual);
      }
      return;
    }
    if (expected.getNodeType() != actual.getNodeType()) {
      diffs.add(path + ": expected " + shorten(expected) + " but was " + shorten(actual));
      return;
    }
    if (expected.isObject()) {
      Set<String> keys = new TreeSet<>();
      expected.fieldNames().forEachRemaining(keys::add);
      actual.fieldNames().forEachRemaining(keys::add);
      for (String key : keys) {
        JsonNode e = expected.get(key);
        JsonNode a = actual.get(key);
        if (path.startsWith("$.children") || path.startsWith("$.attachments")) {
          if (emptyOrNone(e) && emptyOrNone(a)) {
            continue;
          }
        }
        compare(path + "." + key, e, a, diffs);
      }
    } else if (expected.isArray()) {
      if (expected.size() != actual.size()) {
        diffs.add(
            path
                + ": expected "
                + expected.size()
                + " items but was "
                + actual.size()
                + ": "
                + shorten(actual));
        return;
      }
      Iterator<JsonNode> e = expected.elements();
      Iterator<JsonNode> a = actual.elements();
      for (int i = 0; e.hasNext(); i++) {
        compare(path + "[" + i + "]", e.next(), a.next(), diffs);
      }
    } else if (!expected.equals(actual)) {
      diffs.add(path + ": expected " + expected + " but was " + shorten(actual));
    }
  }

  private static boolean emptyOrNone(JsonNode node) {
    return node == null || node.isNull() || node.isArray() && node.isEmpty();
  }

  private static String shorten(JsonNode node) {
    String text = node.toString();
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }
}

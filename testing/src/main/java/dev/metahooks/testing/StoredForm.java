package dev.metahooks.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Whether an API server stored an object in the form a hook sent it. Metacontroller compares what a hook sends with
 * what it observes; any field the hook set that the server stores otherwise (a quantity re-spelt, an empty map
 * dropped, {@code stringData} folded into {@code data}, an unknown field pruned) differs on every sync, and the child
 * is updated for ever. Fields the server adds (its defaults) are no difference: the hook did not set them.
 */
public final class StoredForm {
  private StoredForm() {}

  /**
   * Every place where {@code stored} does not hold what {@code sent} set, as {@code /json/pointer: sent …, stored
   * …}; empty when the server kept everything. A {@code null} the hook sent means "absent" and must be absent.
   */
  public static List<String> differences(JsonNode sent, JsonNode stored) {
    List<String> differences = new ArrayList<>();
    compare("", sent, stored, differences);
    return differences;
  }

  private static void compare(String path, JsonNode sent, JsonNode stored, List<String> differences) {
    if (sent.isNull()) {
      if (stored != null && !stored.isNull() && !stored.isMissingNode()) {
        differences.add(describe(path, sent, stored));
      }
      return;
    }
    if (stored == null || stored.isMissingNode() || stored.getNodeType() != sent.getNodeType()) {
      differences.add(describe(path, sent, stored));
      return;
    }
    if (sent.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> fields = sent.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        compare(path + "/" + escape(field.getKey()), field.getValue(), stored.get(field.getKey()), differences);
      }
    } else if (sent.isArray()) {
      if (sent.size() != stored.size()) {
        differences.add(describe(path, sent, stored));
        return;
      }
      for (int i = 0; i < sent.size(); i++) {
        compare(path + "/" + i, sent.get(i), stored.get(i), differences);
      }
    } else if (!sent.equals(stored)) {
      differences.add(describe(path, sent, stored));
    }
  }

  private static String describe(String path, JsonNode sent, JsonNode stored) {
    String kept = stored == null || stored.isMissingNode() ? "(absent)" : abbreviate(stored.toString());
    return (path.isEmpty() ? "/" : path) + ": sent " + abbreviate(sent.toString()) + ", stored " + kept;
  }

  private static String abbreviate(String json) {
    return json.length() <= 200 ? json : json.substring(0, 200) + "…";
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }
}

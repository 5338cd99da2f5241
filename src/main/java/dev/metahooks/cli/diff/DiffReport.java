package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.cli.diff.PathDiff.Change;
import dev.metahooks.server.internal.Redaction;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Prints what {@link ParentDiff}s found, one block per parent: {@code +} a child to create, {@code -} one to
 * delete, {@code ~} one to change with its paths, then the status. Secret values never appear: a change that may
 * hold one ({@link PathDiff.Change#secret}) shows as masked, and every value is masked with the Secret values of
 * the request and both answers (those in JSON text included) before it is cut to its first characters, so that a
 * cut never keeps part of a value the mask would have matched whole.
 */
final class DiffReport {
  private static final int MAX_VALUE = 100;
  private static final String MASK = "<redacted>";
  private static final int OPEN_VALUE = 16;
  private final PrintStream out;

  DiffReport(PrintStream out) {
    this.out = out;
  }

  /** Prints every parent that would change and a summary line; returns whether anything would. */
  boolean print(List<ParentDiff> diffs) {
    int parents = 0;
    int created = 0;
    int deleted = 0;
    int changed = 0;
    int statuses = 0;
    int refused = 0;
    for (ParentDiff diff : diffs) {
      if (!diff.shows()) {
        continue;
      }
      if (!diff.changes()) { // only held changes: shown, not counted
        block(diff);
        continue;
      }
      parents++;
      created += diff.created().size();
      deleted += diff.deleted().size();
      changed += diff.changed().size();
      statuses += diff.status().isEmpty() ? 0 : 1;
      refused += diff.refusal() == null ? 0 : 1;
      block(diff);
    }
    if (parents == 0) {
      out.println(
          "no changes: "
              + diffs.size()
              + " "
              + plural(diffs.size(), "call")
              + " answered as before");
      return false;
    }
    out.println(
        parents
            + " of "
            + diffs.size()
            + " "
            + plural(diffs.size(), "call")
            + " would change: "
            + created
            + " to create, "
            + changed
            + " to change, "
            + deleted
            + " to delete"
            + (statuses > 0 ? ", " + statuses + " " + plural(statuses, "status") : "")
            + (refused > 0 ? ", " + refused + " refused" : ""));
    return true;
  }

  private void block(ParentDiff diff) {
    DiffCase call = diff.call();
    Set<String> secrets = secrets(diff);
    out.println(
        call.controller()
            + "/"
            + call.hook()
            + "  "
            + call.parentName()
            + "  ("
            + call.source()
            + ")");
    if (diff.refusal() != null) {
      out.println("  ! refused: " + Redaction.mask(diff.refusal(), secrets));
      out.println("    Metacontroller would apply nothing and retry this parent");
    }
    String namespace = call.parentNamespace();
    for (JsonNode child : diff.created()) {
      out.println("  + " + Objects.describe(child, namespace));
    }
    for (Map.Entry<JsonNode, List<Change>> entry : diff.changed().entrySet()) {
      out.println("  ~ " + Objects.describe(entry.getKey(), namespace));
      entry.getValue().forEach(change -> out.println("      " + line(change, secrets)));
    }
    for (Map.Entry<JsonNode, List<Change>> entry : diff.held().entrySet()) {
      out.println(
          "  = "
              + Objects.describe(entry.getKey(), namespace)
              + "  (OnDelete: applied only when it is"
              + " deleted and created again)");
      entry.getValue().forEach(change -> out.println("      " + line(change, secrets)));
    }
    for (JsonNode child : diff.deleted()) {
      out.println("  - " + Objects.describe(child, namespace));
    }
    if (!diff.status().isEmpty()) {
      out.println("  status");
      diff.status().forEach(change -> out.println("      " + line(change, secrets)));
    }
    if (!diff.answer().isEmpty()) {
      out.println("  answer");
      diff.answer().forEach(change -> out.println("      " + line(change, secrets)));
    }
    out.println();
  }

  private static String line(Change change, Set<String> secrets) {
    String path = Redaction.mask(change.path(), secrets);
    if (change.secret()) {
      return path
          + ": "
          + (change.before() == null ? "added" : change.after() == null ? "removed" : "changed")
          + " ("
          + MASK
          + ")";
    }
    return path + ": " + show(change.before(), secrets) + " → " + show(change.after(), secrets);
  }

  /** The value masked whole, then cut. */
  private static String show(JsonNode node, Set<String> secrets) {
    if (node == null) {
      return "(absent)";
    }
    String text = Redaction.mask(node.toString(), secrets);
    return text.length() > MAX_VALUE ? text.substring(0, MAX_VALUE) + "…" : text;
  }

  private static Set<String> secrets(ParentDiff diff) {
    Set<String> secrets = new HashSet<>(SecretText.values(diff.call().request()));
    secrets.addAll(SecretText.values(diff.call().before()));
    diff.created().forEach(child -> secrets.addAll(SecretText.values(child)));
    diff.changed().keySet().forEach(child -> secrets.addAll(SecretText.values(child)));
    diff.held().keySet().forEach(child -> secrets.addAll(SecretText.values(child)));
    secrets.addAll(diff.call().generated().values());
    // A short value the request shows outside any Secret (a user name such as "postgres") is no
    // secret, and masking
    // it inside every word it is part of would make the report unreadable; passwords and keys are
    // longer.
    String open = Redaction.redactSecrets(diff.call().request()).toString();
    secrets.removeIf(value -> value.length() < OPEN_VALUE && open.contains(value));
    return secrets;
  }

  private static String plural(int count, String word) {
    return count == 1 ? word : word.equals("status") ? "statuses" : word + "s";
  }
}

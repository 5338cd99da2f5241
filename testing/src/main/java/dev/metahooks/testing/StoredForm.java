package dev.metahooks.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApplyCheck;
import java.util.List;

/**
 * Whether a child an API server stored has settled for Metacontroller. Metacontroller creates a child with the
 * desired object recorded as last applied, and on every later sync applies the desired object again with a
 * three-way merge (observed, last applied, desired), updating the child whenever the merge differs from what it
 * observes. A field the hook set that the server stores otherwise (a quantity re-spelt, an empty map or list
 * dropped, {@code stringData} folded into {@code data}, an unknown field pruned) differs on every sync, and the
 * child is updated for ever; fields the server adds (its defaults, the token volume admission mounts into a pod)
 * are kept by the merge and are no difference.
 */
public final class StoredForm {
  private StoredForm() {}

  /** The object to send to the API server for {@code desired}, as Metacontroller creates it. */
  public static ObjectNode forCreate(ObjectNode desired) {
    return ApplyCheck.forCreate(desired);
  }

  /**
   * What Metacontroller's next apply of {@code desired} would change in {@code stored} (the server's answer to
   * creating {@link #forCreate}), as {@code path: stored -> applied}; empty when nothing.
   */
  public static List<String> differences(ObjectNode desired, ObjectNode stored) {
    return ApplyCheck.changes(stored, desired);
  }
}

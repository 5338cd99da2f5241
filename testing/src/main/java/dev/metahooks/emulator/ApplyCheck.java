package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Metacontroller's apply of a child, as a check of what an API server stored: the object Metacontroller creates
 * from a desired child, and the changes its next apply of the same desired child would make to the stored object.
 */
public final class ApplyCheck {
  private ApplyCheck() {}

  /** The object Metacontroller creates: the desired child with itself recorded as last applied. */
  public static ObjectNode forCreate(ObjectNode desired) {
    return DynamicApply.forCreate(desired);
  }

  /**
   * The changes ({@code path: stored -> applied}) Metacontroller's three-way apply of {@code desired} makes to
   * {@code stored}; none when the child has settled. Status and system metadata are never applied.
   */
  public static List<String> changes(ObjectNode stored, ObjectNode desired) {
    return JsonDiff.changes(stored, DynamicApply.update(stored, desired));
  }
}

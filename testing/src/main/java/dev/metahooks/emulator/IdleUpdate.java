package dev.metahooks.emulator;

import java.util.List;

/**
 * An {@code InPlace} update of a child that the API server stored unchanged: Metacontroller's three-way merge
 * found a difference ({@code reflect.DeepEqual}, pkg/controller/common/manage_children.go:564) that storage
 * removes again: an explicit {@code null}, a quantity in another than canonical form, an empty list or map, an
 * unknown field, a Secret's {@code stringData}, or a server default inside a list the merge replaces whole. No
 * watch event follows, but Metacontroller sends the same update on every sync of the parent.
 *
 * @param child the child as {@code Kind namespace/name}
 * @param differences what the merge changed, {@code path: stored -> sent}
 * @param rewritten what of the update the API server stores otherwise than sent, {@code path: sent -> stored}
 *     (empty when only server defaults cause the difference)
 */
public record IdleUpdate(
    int round,
    String controller,
    String parent,
    String child,
    List<String> differences,
    List<String> rewritten) {
  public IdleUpdate {
    differences = List.copyOf(differences);
    rewritten = List.copyOf(rewritten);
  }

  /** Whether the update sends an explicit null the API server drops (a hook's null, not a server default). */
  public boolean sendsNull() {
    return differences.stream().anyMatch(d -> d.endsWith("-> null"));
  }

  /**
   * Whether the hook's answer causes the update: it sends something the API server stores otherwise (a null, a
   * non-canonical quantity, an empty map, …), which the hook can stop sending; not a server default.
   */
  public boolean causedByTheAnswer() {
    return sendsNull() || !rewritten.isEmpty();
  }

  @Override
  public String toString() {
    return "round "
        + round
        + " "
        + controller
        + " "
        + parent
        + ": update of "
        + child
        + " stored unchanged "
        + differences
        + (rewritten.isEmpty()
            ? ""
            : "; the API server stores these otherwise than sent (sent -> "
                + "stored): "
                + rewritten);
  }
}

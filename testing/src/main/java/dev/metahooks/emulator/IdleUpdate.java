package dev.metahooks.emulator;

import java.util.List;

/**
 * An {@code InPlace} update of a child that the API server stored unchanged: Metacontroller's three-way merge
 * found a difference ({@code reflect.DeepEqual}, pkg/controller/common/manage_children.go:564) that storage
 * removes again, typically an explicit {@code null}. No watch event follows, but Metacontroller sends the same
 * update on every sync of the parent.
 *
 * @param child the child as {@code Kind namespace/name}
 * @param differences what the merge changed, {@code path: stored -> sent}
 */
public record IdleUpdate(int round, String controller, String parent, String child, List<String> differences) {
  public IdleUpdate {
    differences = List.copyOf(differences);
  }

  /** Whether the update sends an explicit null the API server drops (a hook's null, not a server default). */
  public boolean sendsNull() {
    return differences.stream().anyMatch(d -> d.endsWith("-> null"));
  }

  @Override
  public String toString() {
    return "round " + round + " " + controller + " " + parent + ": update of " + child + " stored unchanged "
        + differences;
  }
}

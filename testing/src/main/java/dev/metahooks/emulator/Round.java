package dev.metahooks.emulator;

import java.util.List;

/**
 * One pass of the emulated control loop: a world step, then one sync of every parent of every controller.
 *
 * @param writes everything written to the cluster during the round (world, Metacontroller, garbage collector)
 */
public record Round(int number, List<Write> writes, List<HookCall> calls, List<SyncError> errors) {
  public Round {
    writes = List.copyOf(writes);
    calls = List.copyOf(calls);
    errors = List.copyOf(errors);
  }

  /** Whether the round changed the cluster; a round that did not means the system is at rest. */
  public boolean changed() {
    return !writes.isEmpty();
  }
}

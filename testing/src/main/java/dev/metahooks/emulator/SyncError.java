package dev.metahooks.emulator;

/**
 * A failed sync of one parent: Metacontroller would record a {@code SyncError} event and retry later, having
 * changed nothing after the failing step.
 *
 * @param parent the parent (or decorated object) as {@code Kind namespace/name}
 */
public record SyncError(int round, String controller, String parent, String message) {
  @Override
  public String toString() {
    return "round " + round + " " + controller + " " + parent + ": " + message;
  }
}

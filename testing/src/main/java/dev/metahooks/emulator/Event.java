package dev.metahooks.emulator;

/**
 * A Kubernetes Event Metacontroller records: {@code Warning SyncError "Sync error: <error>"} on the parent of a
 * failed sync (composite/controller.go:612-617, decorator/controller.go:606), identical ones counted as the event
 * correlator counts them.
 *
 * @param object the involved object as {@code Kind namespace/name}
 * @param count how many times it was recorded, from {@code firstRound} to {@code lastRound}
 */
public record Event(
    String type,
    String reason,
    String object,
    String message,
    int count,
    int firstRound,
    int lastRound) {
  @Override
  public String toString() {
    return type
        + " "
        + reason
        + " "
        + object
        + ": "
        + message
        + (count > 1 ? " (x" + count + ")" : "");
  }
}

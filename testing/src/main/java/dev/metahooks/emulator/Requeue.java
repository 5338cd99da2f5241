package dev.metahooks.emulator;

/**
 * A hook answered 429: Metacontroller requeues the parent after {@code Retry-After} seconds, with no
 * SyncError event and no backoff (composite/controller.go:604-608, decorator/controller.go likewise).
 */
final class Requeue extends RuntimeException {
  final long afterSeconds;

  Requeue(long afterSeconds) {
    super("requeued after " + afterSeconds + " s", null, false, false);
    this.afterSeconds = afterSeconds;
  }
}

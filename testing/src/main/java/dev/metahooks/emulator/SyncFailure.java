package dev.metahooks.emulator;

/** Ends the sync of one parent; becomes a {@link SyncError}. */
final class SyncFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  SyncFailure(String message) {
    super(message);
  }
}

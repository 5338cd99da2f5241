package dev.metahooks.emulator;

/**
 * An answer that makes Metacontroller v4.17.2 panic. Its sync workers run under {@code wait.Until}, whose
 * {@code runtime.HandleCrash} re-panics, so the whole process exits and restarts, and meets the same answer
 * again: every controller of that Metacontroller is down, not only this one. The scenario fails with it rather
 * than recording a {@link SyncError} (under {@link Profile#INTENDED} it is one).
 */
public final class MetacontrollerCrash extends AssertionError {
  private static final long serialVersionUID = 1L;

  MetacontrollerCrash(String controller, String parent, String panic, String source) {
    super(
        controller
            + " "
            + parent
            + ": on a cluster this answer crash-loops Metacontroller, every controller with "
            + "it: "
            + panic
            + " ("
            + source
            + " at v4.17.2)");
  }
}

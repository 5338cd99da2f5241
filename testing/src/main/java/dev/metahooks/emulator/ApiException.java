package dev.metahooks.emulator;

/** An error answer of the emulated API server, with the reason a client would branch on. */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * The Kubernetes status reasons the emulator produces; a real API server (docs/emulator.md, "A real API server")
   * also answers {@code FORBIDDEN} (admission, a namespace being deleted), {@code BAD_REQUEST} and errors of its own.
   */
  public enum Reason { NOT_FOUND, ALREADY_EXISTS, CONFLICT, INVALID, FORBIDDEN, BAD_REQUEST, SERVER_ERROR }

  private final Reason reason;

  public ApiException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  public boolean is(Reason expected) {
    return reason == expected;
  }
}

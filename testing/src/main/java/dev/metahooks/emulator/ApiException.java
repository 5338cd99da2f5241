package dev.metahooks.emulator;

/** An error answer of the emulated API server, with the reason a client would branch on. */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * The Kubernetes status reasons the emulator produces: {@code BAD_REQUEST} when the body cannot be decoded (a
   * quantity that is not one), {@code METHOD_NOT_ALLOWED} for a namespaced create without a namespace in the path; a
   * real API server (docs/emulator.md, "A real API server") also answers {@code FORBIDDEN} (admission, a namespace
   * being deleted) and errors of its own.
   */
  public enum Reason {
    NOT_FOUND,
    ALREADY_EXISTS,
    CONFLICT,
    INVALID,
    FORBIDDEN,
    BAD_REQUEST,
    METHOD_NOT_ALLOWED,
    SERVER_ERROR
  }

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

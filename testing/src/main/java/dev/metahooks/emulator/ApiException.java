package dev.metahooks.emulator;

/** An error answer of the emulated API server, with the reason a client would branch on. */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * The Kubernetes status reasons the emulator produces: {@code BAD_REQUEST} when the body cannot be decoded (a
   * quantity that is not one), {@code METHOD_NOT_ALLOWED} for a namespaced create without a namespace in the path.
   */
  public enum Reason { NOT_FOUND, ALREADY_EXISTS, CONFLICT, INVALID, BAD_REQUEST, METHOD_NOT_ALLOWED }

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

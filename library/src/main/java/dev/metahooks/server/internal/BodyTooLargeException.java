package dev.metahooks.server.internal;

/** The request body is longer than the configured limit, or would make too large a tree; the server answers 413. */
public final class BodyTooLargeException extends RuntimeException {
  public BodyTooLargeException(long limit) {
    this("request body exceeds the limit of " + limit + " bytes (METAHOOKS_MAX_BODY_BYTES)");
  }

  public BodyTooLargeException(String message) {
    super(message);
  }
}

package dev.metahooks.server;

/** The request body is longer than the configured limit; the server answers 413. */
public final class BodyTooLargeException extends RuntimeException {
  public BodyTooLargeException(long limit) {
    super("request body exceeds the limit of " + limit + " bytes (METAHOOKS_MAX_BODY_BYTES)");
  }
}

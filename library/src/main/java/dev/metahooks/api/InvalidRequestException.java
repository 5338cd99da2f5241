package dev.metahooks.api;

/**
 * A well-formed JSON request that lacks what the hook needs, or carries it in the wrong shape.
 * The server answers 422 and names {@link #field()}; Metacontroller logs it and retries with backoff,
 * and touches nothing, because no desired state was returned.
 */
public final class InvalidRequestException extends RuntimeException {
  private final String field;

  public InvalidRequestException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  /** Where in the request the problem is, as a path such as {@code parent.metadata.name}. */
  public String field() {
    return field;
  }
}

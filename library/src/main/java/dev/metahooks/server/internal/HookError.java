package dev.metahooks.server.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.json.TreeTooLargeException;
import dev.metahooks.json.WorkDeadline;
import java.io.IOException;

/**
 * An answer that is an error: its {@link ErrorCode} (status and code), a message naming the problem and, for a
 * request that lacks something, the field. {@link #from} is the one place that turns any failure into one.
 */
public final class HookError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The JSON body of every error answer. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Body(String error, String message, String field) {}

  private final ErrorCode code;
  private final String field;

  public HookError(ErrorCode code, String message) {
    this(code, message, null);
  }

  public HookError(ErrorCode code, String message, String field) {
    super(message, null, false, false); // an answer, not a fault: no stack trace
    this.code = code;
    this.field = field;
  }

  public ErrorCode code() {
    return code;
  }

  public int status() {
    return code.status();
  }

  public String field() {
    return field;
  }

  public Body body() {
    return new Body(code.code(), getMessage(), field);
  }

  /**
   * What a failure on the way from the request's bytes to the answer's is answered with: what the caller can fix is
   * a 4xx naming it; anything else a 500 (the caller logs it, with what it knows of the call).
   */
  public static HookError from(Throwable e) {
    if (e instanceof HookError error) {
      return error;
    }
    if (e instanceof InvalidRequestException invalid) {
      return new HookError(ErrorCode.INVALID_REQUEST, invalid.getMessage(), invalid.field());
    }
    if (e instanceof BodyTooLargeException) {
      return new HookError(ErrorCode.PAYLOAD_TOO_LARGE, e.getMessage());
    }
    if (e instanceof TreeTooLargeException tree) {
      return new HookError(ErrorCode.PAYLOAD_TOO_LARGE, tree.getOriginalMessage());
    }
    if (e instanceof Admission.Refused) {
      return new HookError(ErrorCode.TOO_MANY_REQUESTS, e.getMessage());
    }
    if (e instanceof StreamConstraintsException limit) {
      return new HookError(
          ErrorCode.BAD_REQUEST, "request exceeds a parser limit: " + limit.getOriginalMessage());
    }
    if (e instanceof JsonProcessingException json) {
      return new HookError(
          ErrorCode.BAD_REQUEST,
          "malformed JSON"
              + where(json.getLocation())
              + ": "
              + firstLine(json.getOriginalMessage()));
    }
    if (e instanceof WorkDeadline.Passed) {
      return new HookError(ErrorCode.DEADLINE_EXCEEDED, "no answer within the deadline; retry");
    }
    if (e instanceof SlowBodyException) {
      return new HookError(ErrorCode.REQUEST_TIMEOUT, e.getMessage());
    }
    if (e instanceof IOException) {
      return e.getCause() instanceof BodyTooLargeException tooLarge
          ? from(tooLarge)
          : new HookError(
              ErrorCode.BAD_REQUEST, "could not read the request body: " + e.getMessage());
    }
    return new HookError(ErrorCode.INTERNAL_ERROR, "unexpected server error");
  }

  private static String where(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  private static String firstLine(String message) {
    int newline = message == null ? -1 : message.indexOf('\n');
    return newline < 0 ? String.valueOf(message) : message.substring(0, newline);
  }
}

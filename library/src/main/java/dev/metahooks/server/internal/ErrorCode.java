package dev.metahooks.server.internal;

/**
 * Every error the server answers, with its HTTP status and the {@code error} code of its JSON body, in one place.
 * The code is also the outcome the metrics count.
 */
public enum ErrorCode {
  BAD_REQUEST(400, "bad_request"),
  UNAUTHORIZED(401, "unauthorized"),
  NOT_FOUND(404, "not_found"),
  METHOD_NOT_ALLOWED(405, "method_not_allowed"),
  REQUEST_TIMEOUT(408, "request_timeout"),
  PAYLOAD_TOO_LARGE(413, "payload_too_large"),
  URI_TOO_LONG(414, "uri_too_long"),
  UNSUPPORTED_MEDIA_TYPE(415, "unsupported_media_type"),
  INVALID_REQUEST(422, "invalid_request"),
  UPGRADE_REQUIRED(426, "upgrade_required"),
  TOO_MANY_REQUESTS(429, "too_many_requests"),
  HEADERS_TOO_LARGE(431, "request_header_fields_too_large"),
  INTERNAL_ERROR(500, "internal_error"),
  /** Jetty's own 503s; the server's say why (below). */
  UNAVAILABLE(503, "unavailable"),
  NOT_READY(503, "not_ready"),
  SHUTTING_DOWN(503, "shutting_down"),
  DEADLINE_EXCEEDED(503, "deadline_exceeded"),
  HTTP_VERSION_NOT_SUPPORTED(505, "http_version_not_supported");

  private final int status;
  private final String code;

  ErrorCode(int status, String code) {
    this.status = status;
    this.code = code;
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  /** The code of an error Jetty answers by itself with this status (the first listed for it). */
  static String forStatus(int status) {
    for (ErrorCode error : values()) {
      if (error.status == status) {
        return error.code;
      }
    }
    return status >= 500 ? INTERNAL_ERROR.code : BAD_REQUEST.code;
  }
}

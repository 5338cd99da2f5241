package dev.metahooks.server.internal;

/**
 * A hook call answered as bytes, the one answer type after the controller's {@code HookResponse}: the status, the
 * JSON body (in {@link Blocks}, as written), on a 200 its ETag (a hash of the body), the metrics outcome, what the
 * access log says about it, and whether it came from the response cache.
 */
public record Reply(
    int status, Blocks body, String etag, String outcome, CallSummary summary, boolean cached) {
  /** An error answered before the body was read. */
  static Reply of(HookError error) {
    return AnswerWriter.error(error, CallSummary.UNREAD);
  }

  /** This reply as the response cache gives it back. */
  Reply fromCache() {
    return new Reply(status, body, etag, outcome, summary, true);
  }

  /** What the response cache counts for holding it. */
  long weight() {
    return body.size()
        + etag.length() * 2L
        + 256; // 256: key, map node and record overhead, roughly
  }
}

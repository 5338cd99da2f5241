package dev.metahooks.server.internal;

import java.io.IOException;

/** A request body that arrives slower than the server accepts: a 408, and the connection is closed. */
final class SlowBodyException extends IOException {
  private static final long serialVersionUID = 1L;

  SlowBodyException(long bytes, long elapsedMillis) {
    super(
        "the body arrived slower than "
            + RequestBodies.MIN_BYTES_PER_SECOND
            + " bytes/s after the first "
            + RequestBodies.GRACE.toMillis()
            + " ms ("
            + bytes
            + " bytes in "
            + elapsedMillis
            + " ms)");
  }
}

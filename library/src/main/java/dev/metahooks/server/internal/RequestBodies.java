package dev.metahooks.server.internal;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/** Reading a hook call's body whole, at a minimum rate, and throwing away one the answer did not need. */
public final class RequestBodies {
  /**
   * What a body must average once {@link #GRACE} has passed, while it is still arriving: Metacontroller sends a
   * body at once from inside the cluster (a 39 MB one in well under a second), a client that trickles it in holds
   * a thread and its bytes of the budget, and is cut with a 408 after about a second.
   */
  static final long MIN_BYTES_PER_SECOND = 64 * 1024;

  static final Duration GRACE = Duration.ofSeconds(1);
  private static final int PIECE = 64 * 1024;

  private final long maxBodyBytes;
  private final Duration discardWait;

  public RequestBodies(long maxBodyBytes, Duration discardWait) {
    this.maxBodyBytes = maxBodyBytes;
    this.discardWait = discardWait;
  }

  /**
   * The whole body in one array of its exact size when the length is known (Metacontroller always sends it):
   * the response cache needs its hash before deciding to parse, and Jackson parses an array faster than a stream.
   * A body of unknown length takes budget as it grows.
   *
   * @throws SlowBodyException when it arrives slower than the minimum rate
   */
  byte[] read(Context ctx, Admission.Bytes budget) throws IOException {
    long length = ctx.req().getContentLengthLong();
    InputStream in = ctx.req().getInputStream();
    long started = System.nanoTime();
    if (length >= 0) {
      // Into the array itself, a piece at a time, so that the rate is checked while the body
      // arrives.
      byte[] body = new byte[(int) length];
      int read = 0;
      for (int n;
          read < body.length
              && (n = in.read(body, read, Math.min(PIECE, body.length - read))) >= 0; ) {
        read += n;
        if (read < body.length) {
          requireRate(read, started);
        }
      }
      if (read < length) {
        throw new IOException("the body ended after " + read + " of " + length + " bytes");
      }
      return body;
    }
    try (InputStream limited =
        new LimitedInputStream(
            in,
            maxBodyBytes,
            count -> {
              budget.grow(count);
              requireRate(count, started);
            })) {
      return limited.readAllBytes();
    }
  }

  private static void requireRate(long bytes, long started) throws SlowBodyException {
    long elapsed = System.nanoTime() - started - GRACE.toNanos();
    if (elapsed > 0 && bytes < MIN_BYTES_PER_SECOND * elapsed / 1_000_000_000L) {
      throw new SlowBodyException(bytes, (System.nanoTime() - started) / 1_000_000);
    }
  }

  /**
   * Reads what is left of a body the answer did not need (a 429 for a 39 MB body, say) and throws it away, a
   * buffer at a time, so that the connection is closed once the client has sent it all: closing while it still
   * sends would reset the connection, and the client would see the reset instead of the answer it was sent. At most
   * a body within the limit, for at most the admission wait; beyond that the connection is closed regardless.
   */
  void discard(Context ctx) {
    long declared = ctx.req().getContentLengthLong();
    if (declared > maxBodyBytes) {
      return; // never sent whole anyway
    }
    long until = System.nanoTime() + discardWait.toNanos();
    byte[] buffer = new byte[64 * 1024];
    long left = maxBodyBytes;
    try {
      InputStream in = ctx.req().getInputStream();
      for (int n; left > 0 && System.nanoTime() < until && (n = in.read(buffer)) >= 0; ) {
        left -= n;
      }
    } catch (IOException | RuntimeException e) {
      // the client is gone or stalls: the connection is closed either way
    }
  }
}

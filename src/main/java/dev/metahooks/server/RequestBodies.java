package dev.metahooks.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/** Reading a hook call's body whole, and throwing away one the answer did not need. */
final class RequestBodies {
  private final long maxBodyBytes;
  private final Duration discardWait;

  RequestBodies(long maxBodyBytes, Duration discardWait) {
    this.maxBodyBytes = maxBodyBytes;
    this.discardWait = discardWait;
  }

  /**
   * The whole body in one array of its exact size when the length is known (Metacontroller always sends it):
   * the response cache needs its hash before deciding to parse, and Jackson parses an array faster than a stream.
   * A body of unknown length takes budget as it grows.
   */
  byte[] read(Context ctx, Admission.Ticket ticket) throws IOException {
    long length = ctx.req().getContentLengthLong();
    InputStream in = ctx.req().getInputStream();
    if (length >= 0) {
      // Into the array itself: readNBytes(int) would read into 8 kB pieces and copy them into a second array.
      byte[] body = new byte[(int) length];
      int read = in.readNBytes(body, 0, body.length);
      if (read < length) {
        throw new IOException("the body ended after " + read + " of " + length + " bytes");
      }
      return body;
    }
    try (InputStream limited = new LimitedInputStream(in, maxBodyBytes, ticket::grow)) {
      return limited.readAllBytes();
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

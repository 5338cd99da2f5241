package dev.metahooks.server.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a body of unknown length (chunked) and stops past a byte limit; tells {@code growth} how far it has come,
 * so that the body budget grows with it.
 */
final class LimitedInputStream extends FilterInputStream {
  private final long limit;
  private final Growth growth;
  private long count;

  /** Told how many bytes have been read so far; may refuse to go on. */
  interface Growth {
    void grown(long count) throws IOException;
  }

  LimitedInputStream(InputStream in, long limit, Growth growth) {
    super(in);
    this.limit = limit;
    this.growth = growth;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  private void count(long n) throws IOException {
    count += n;
    if (count > limit) {
      throw new BodyTooLargeException(limit);
    }
    growth.grown(count);
  }
}

package dev.metahooks.server;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongConsumer;

/**
 * Reads a body of unknown length (chunked) and stops past a byte limit; tells {@code growth} how far it has come,
 * so that the body budget grows with it.
 */
final class LimitedInputStream extends FilterInputStream {
  private final long limit;
  private final LongConsumer growth;
  private long count;

  LimitedInputStream(InputStream in, long limit, LongConsumer growth) {
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

  private void count(long n) {
    count += n;
    if (count > limit) {
      throw new BodyTooLargeException(limit);
    }
    growth.accept(count);
  }
}

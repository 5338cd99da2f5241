package dev.metahooks.server;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Streams a request body into the parser and stops it past a byte limit, chunked bodies included. */
final class LimitedInputStream extends FilterInputStream {
  private final long limit;
  private long count;

  LimitedInputStream(InputStream in, long limit) {
    super(in);
    this.limit = limit;
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
  }
}

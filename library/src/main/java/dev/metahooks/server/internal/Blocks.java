package dev.metahooks.server.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An answer's bytes in blocks of a fixed size, filled in order and never copied as they grow: a 10 MB answer is
 * written once into its blocks, sent from them and kept by the response cache as they are. Immutable once built.
 */
public final class Blocks {
  /** The first block: most answers (a few kB) fit it. */
  static final int FIRST = 8 * 1024;

  /** Every further block. */
  public static final int BLOCK = 64 * 1024;

  private final List<byte[]>
      blocks; // each full but the last, which is exactly as long as its bytes
  private final long size;

  private Blocks(List<byte[]> blocks, long size) {
    this.blocks = blocks;
    this.size = size;
  }

  /** Bytes already in one array (an error's small body). */
  static Blocks of(byte[] bytes) {
    return new Blocks(List.of(bytes), bytes.length);
  }

  public long size() {
    return size;
  }

  /** Writes every block in order. */
  public void writeTo(OutputStream out) throws IOException {
    for (byte[] block : blocks) {
      out.write(block);
    }
  }

  /** The bytes to read again (to log or record them), without copying them. */
  public InputStream stream() {
    List<InputStream> streams = new ArrayList<>(blocks.size());
    blocks.forEach(block -> streams.add(new ByteArrayInputStream(block)));
    return new SequenceInputStream(Collections.enumeration(streams));
  }

  /** The bytes in one new array: a copy, for tests and tools, not the answer path. */
  public byte[] toByteArray() {
    byte[] all = new byte[Math.toIntExact(size)];
    int at = 0;
    for (byte[] block : blocks) {
      System.arraycopy(block, 0, all, at, block.length);
      at += block.length;
    }
    return all;
  }

  /** Appends bytes to blocks; {@link #finish} hands them over. */
  static final class Sink extends OutputStream {
    private final List<byte[]> blocks = new ArrayList<>();
    private byte[] current = new byte[FIRST];
    private int used;
    private long size;

    /** Bytes written so far. */
    long size() {
      return size;
    }

    @Override
    public void write(int b) {
      if (used == current.length) {
        next();
      }
      current[used++] = (byte) b;
      size++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      while (length > 0) {
        if (used == current.length) {
          next();
        }
        int n = Math.min(length, current.length - used);
        System.arraycopy(bytes, offset, current, used, n);
        used += n;
        offset += n;
        length -= n;
        size += n;
      }
    }

    /** The bytes written; the last block is cut to its length (at most one block is copied). */
    Blocks finish() {
      blocks.add(used == current.length ? current : Arrays.copyOf(current, used));
      current = null;
      return new Blocks(List.copyOf(blocks), size);
    }

    private void next() {
      blocks.add(current);
      current = new byte[BLOCK];
      used = 0;
    }
  }
}

package dev.metahooks.server.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The response cache's own cost, without the request's hash: a lookup that hits, and one that misses and keeps
 * the answer (evicting to stay within its bytes), on two threads at once as the server's two compute slots call
 * it. {@code scripts/bench.sh ResponseCacheBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g", "-Xms1g"})
@Threads(2)
public class ResponseCacheBenchmark {
  private static final int KEYS = 1024;
  private final ResponseCache.Key[] keys = new ResponseCache.Key[KEYS];
  private final ResponseCache.Key[] fresh = new ResponseCache.Key[KEYS * 64];
  private final Reply reply =
      new Reply(200, Blocks.of(new byte[2048]), "\"etag\"", "ok", CallSummary.UNREAD, false);
  private ResponseCache cache;
  private ResponseCache small;

  @Setup(Level.Trial)
  public void setUp() {
    cache = new ResponseCache(32L * 1024 * 1024); // all KEYS answers fit
    small = new ResponseCache(256L * 1024); // about a hundred fit: every put evicts
    for (int i = 0; i < KEYS; i++) {
      keys[i] = key(i);
      cache.put(keys[i], reply);
    }
    for (int i = 0; i < fresh.length; i++) {
      fresh[i] = key(KEYS + i);
    }
  }

  private static ResponseCache.Key key(int i) {
    return new ResponseCache.Key(
        "catset", "sync", Digests.sha256(ByteBuffer.allocate(4).putInt(i).array()));
  }

  /** Per thread: where in the keys it is. */
  @State(Scope.Thread)
  public static class Cursor {
    int at = (int) (Math.random() * KEYS);

    int next(int bound) {
      at = (at + 1) % bound;
      return at;
    }
  }

  @Benchmark
  public Reply hit(Cursor cursor) {
    return cache.get(keys[cursor.next(KEYS)]);
  }

  @Benchmark
  public Reply missAndPut(Cursor cursor) {
    ResponseCache.Key key = fresh[cursor.next(fresh.length)];
    Reply found = small.get(key);
    if (found == null) {
      small.put(key, reply);
    }
    return found;
  }
}

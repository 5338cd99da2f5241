package dev.metahooks.bench;

import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * Mixed traffic against a running server for a fixed time: every golden fixture (all controllers), large
 * generated requests, and a share of bad requests, each with the status it must get. A 429 is the server
 * shedding load beyond its concurrency bound, as designed, and is counted apart; any other status is
 * unexpected. Samples the server's resident memory. Run by {@code scripts/soak.sh}.
 *
 * <p>Arguments: base URL, seconds, concurrency, server pid (0 to skip memory sampling).
 */
public final class Soak {
  record Call(String name, String path, String contentType, byte[] body, int expected) {}

  public static void main(String[] args) throws Exception {
    String base = args[0];
    long seconds = Long.parseLong(args[1]);
    int concurrency = Integer.parseInt(args[2]);
    long pid = args.length > 3 ? Long.parseLong(args[3]) : 0;
    List<Call> small = fixtures();
    List<Call> large =
        List.of(
            new Call(
                "catset-1000-pods",
                "/catset/sync",
                "application/json",
                new RequestGenerator(1).catset(1000),
                200),
            new Call(
                "indexedjob-1000-pods",
                "/indexedjob/sync",
                "application/json",
                new RequestGenerator(2).indexedjob(1000),
                200));
    List<Call> bad =
        List.of(
            new Call(
                "malformed", "/catset/sync", "application/json", "{\"parent\": ".getBytes(), 400),
            new Call(
                "not-an-object", "/catset/sync", "application/json", "[1,2,3]".getBytes(), 400),
            new Call("unknown-controller", "/nope/sync", "application/json", "{}".getBytes(), 404),
            new Call(
                "unknown-hook", "/hello-world/finalize", "application/json", "{}".getBytes(), 404),
            new Call(
                "missing-parent",
                "/hello-world/sync",
                "application/json",
                "{\"children\": {}}".getBytes(),
                422),
            new Call(
                "wrong-content-type", "/hello-world/sync", "text/plain", "{}".getBytes(), 415));

    HttpClient client =
        HttpClient.newBuilder()
            .executor(Executors.newFixedThreadPool(4))
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    ConcurrentHistogram latency = new ConcurrentHistogram(TimeUnit.SECONDS.toMicros(30), 3);
    Map<String, LongAdder> byClass = new ConcurrentHashMap<>();
    Map<String, LongAdder> unexpected = new ConcurrentHashMap<>();
    LongAdder shed = new LongAdder();
    AtomicLong bytesSent = new AtomicLong();
    List<String> memory = new ArrayList<>();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    ExecutorService workers = Executors.newFixedThreadPool(concurrency);
    for (int w = 0; w < concurrency; w++) {
      long seed = w;
      workers.submit(
          () -> {
            Random random = new Random(seed);
            while (System.nanoTime() < end) {
              int roll = random.nextInt(100);
              List<Call> pool = roll < 70 ? small : roll < 80 ? large : bad;
              String cls = roll < 70 ? "fixtures" : roll < 80 ? "large" : "bad";
              Call call = pool.get(random.nextInt(pool.size()));
              long started = System.nanoTime();
              int status;
              try {
                status =
                    client
                        .send(
                            HttpRequest.newBuilder(URI.create(base + call.path()))
                                .header("Content-Type", call.contentType())
                                .timeout(Duration.ofSeconds(30))
                                .POST(HttpRequest.BodyPublishers.ofByteArray(call.body()))
                                .build(),
                            HttpResponse.BodyHandlers.discarding())
                        .statusCode();
              } catch (IOException e) {
                status = -1;
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
              latency.recordValue(
                  Math.min(
                      TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started),
                      TimeUnit.SECONDS.toMicros(30)));
              bytesSent.addAndGet(call.body().length);
              byClass.computeIfAbsent(cls, k -> new LongAdder()).increment();
              if (status == 429) {
                shed.increment(); // back-pressure by design: Metacontroller requeues after
                // Retry-After
              } else if (status != call.expected()) {
                unexpected
                    .computeIfAbsent(
                        call.name() + " got " + status + " (expected " + call.expected() + ")",
                        k -> new LongAdder())
                    .increment();
              }
            }
          });
    }
    workers.shutdown();
    long startedAt = System.nanoTime();
    while (!workers.awaitTermination(5, TimeUnit.SECONDS)) {
      if (pid > 0) {
        memory.add(
            ((System.nanoTime() - startedAt) / 1_000_000_000) + "s=" + rssMegabytes(pid) + "MB");
      }
    }
    long total = byClass.values().stream().mapToLong(LongAdder::sum).sum();
    System.out.printf(
        "duration %d s, concurrency %d, requests %d (%.0f/s), %.1f MB sent%n",
        seconds, concurrency, total, total / (double) seconds, bytesSent.get() / 1e6);
    System.out.println("by class " + byClass);
    System.out.printf(
        "shed with 429 (over the concurrency bound): %d (%.1f%%)%n",
        shed.sum(), 100.0 * shed.sum() / Math.max(total, 1));
    System.out.printf(
        "latency ms: p50 %.1f, p90 %.1f, p99 %.1f, max %.1f%n",
        latency.getValueAtPercentile(50) / 1e3,
        latency.getValueAtPercentile(90) / 1e3,
        latency.getValueAtPercentile(99) / 1e3,
        latency.getMaxValue() / 1e3);
    if (pid > 0) {
      System.out.println("server RSS every 5 s: " + String.join(" ", memory));
    }
    System.out.println("unexpected statuses: " + (unexpected.isEmpty() ? "none" : unexpected));
    System.exit(unexpected.isEmpty() ? 0 : 1);
  }

  private static List<Call> fixtures() throws IOException {
    Path root = Resources.path("fixtures");
    List<Call> calls = new ArrayList<>();
    for (Path request : Resources.find(root, ".request.json")) {
      Path relative = root.relativize(request);
      calls.add(
          new Call(
              relative.toString(),
              "/" + relative.getName(0) + "/" + relative.getName(1),
              "application/json",
              Files.readAllBytes(request),
              200));
    }
    return calls;
  }

  private static long rssMegabytes(long pid) {
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return -1;
  }
}

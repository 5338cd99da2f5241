package dev.metahooks.testsupport;

import dev.metahooks.bench.RequestGenerator;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The memory attacks of one run against a server in its own JVM: the amplifying requests, the bodies of nothing but
 * structure, and four 39 MB CatSets at once. Shared by the test that holds the server to its bounds and by the
 * measurement that gives before/after figures ({@code dev.metahooks.bench.MemoryAttack}).
 */
public final class HostileMatrix {
  /** One answer: which attack, its status (-1: no answer, the connection failed), its first bytes, its time. */
  public record Result(String attack, int status, String body, Duration elapsed) {
    public boolean json() {
      return body.startsWith("{");
    }
  }

  /** The four large CatSets, each its status and time, and the time of the first 429 or 503 among them. */
  public record Burst(List<Result> results, Duration firstRefusal) {}

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private HostileMatrix() {}

  /** How many attacks {@link #single} knows. */
  public static final int SINGLES = 5;

  /** Each attack alone, one after the other. */
  public static List<Result> singles(ChildServer server) {
    List<Result> results = new ArrayList<>();
    for (int i = 0; i < SINGLES; i++) {
      results.add(single(server, i));
    }
    return results;
  }

  /** Attack {@code index} of {@link #SINGLES}. */
  public static Result single(ChildServer server, int index) {
    return switch (index) {
      case 0 ->
          post(
              server,
              "service-per-pod 1.6 kB, 100,000 replicas x 20 ports",
              "/service-per-pod/sync",
              HostileBodies.servicePerPodAmplification());
      case 1 ->
          post(
              server,
              "catset 12 kB, 10 kB claim template x 100,000",
              "/catset/sync",
              HostileBodies.catsetAmplification());
      case 2 ->
          post(
              server,
              "indexedjob 12 kB, 10 kB template x 100,000",
              "/indexedjob/sync",
              HostileBodies.indexedJobAmplification());
      case 3 ->
          post(
              server,
              "12,000,000 empty arrays (36 MB)",
              "/hello-world/sync",
              HostileBodies.emptyArrays(12_000_000));
      case 4 ->
          post(
              server,
              "100,000 nests of depth 190 (38 MB)",
              "/hello-world/sync",
              HostileBodies.nests(100_000, 190));
      default -> throw new IllegalArgumentException("no attack " + index);
    };
  }

  /** Four 39 MB CatSets (10,000 Pods each, the size docs/configuration.md advertises) sent at once. */
  public static Burst largeCatSets(ChildServer server) {
    byte[] body = new RequestGenerator(1).catset(10_000);
    long start = System.nanoTime();
    List<CompletableFuture<Result>> calls = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      calls.add(
          CompletableFuture.supplyAsync(() -> post(server, "catset 39 MB", "/catset/sync", body)));
    }
    List<Result> results = calls.stream().map(CompletableFuture::join).toList();
    Duration first = null;
    for (Result result : results) {
      if ((result.status() == 429 || result.status() == 503)
          && (first == null || result.elapsed().compareTo(first) < 0)) {
        first = result.elapsed();
      }
    }
    return new Burst(results, first);
  }

  static Result post(ChildServer server, String attack, String path, byte[] body) {
    long start = System.nanoTime();
    try {
      HttpResponse<String> response =
          CLIENT.send(
              HttpRequest.newBuilder(server.uri(path))
                  .header("Content-Type", "application/json")
                  .timeout(Duration.ofSeconds(60))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String text = response.body();
      return new Result(
          attack,
          response.statusCode(),
          text.substring(0, Math.min(400, text.length())),
          Duration.ofNanos(System.nanoTime() - start));
    } catch (IOException e) {
      return new Result(attack, -1, e.toString(), Duration.ofNanos(System.nanoTime() - start));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(attack, -1, e.toString(), Duration.ofNanos(System.nanoTime() - start));
    }
  }
}

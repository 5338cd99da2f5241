package dev.metahooks.server.internal;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.server.LocalConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The warm-up: hook requests shipped in the jar ({@code warm-up/<controller>/<hook>.request.json}, copies of golden
 * fixtures) sent through Jetty's in-memory connector, so that they take the path of a call over HTTP (Jetty's
 * parser, routing, admission, the response cache, the hook, the answer writer, the reply) without a socket. The
 * server leaves these calls out of its metrics, access log and recordings ({@code HookServer}). Every other round
 * starts with an empty response cache, so that the hooks run as well as the cache's hits.
 */
public final class TrainingCalls {
  private static final Logger LOG = LoggerFactory.getLogger(TrainingCalls.class);
  private static final String RESOURCES = "/warm-up/";

  /** One training call: the hook's path and the raw HTTP request. */
  record Call(String path, byte[] http) {}

  /** What a warm-up did. */
  public record Summary(long calls, long refused, Duration took) {}

  private final List<Call> calls;

  private TrainingCalls(List<Call> calls) {
    this.calls = calls;
  }

  /** The training requests of every served hook that ships one; hooks without one are left out. */
  public static TrainingCalls of(List<Controller> controllers) {
    List<Call> calls = new ArrayList<>();
    for (Controller controller : controllers) {
      for (Hook hook : controller.hooks()) {
        byte[] body = request(controller.name(), hook.path());
        if (body != null) {
          String path = "/" + controller.name() + "/" + hook.path();
          calls.add(new Call(path, http(path, body)));
        }
      }
    }
    return new TrainingCalls(List.copyOf(calls));
  }

  /** The shipped training request of {@code /<controller>/<hook>}, or null. */
  public static byte[] request(String controller, String hook) {
    try (InputStream in =
        TrainingCalls.class.getResourceAsStream(
            RESOURCES + controller + "/" + hook + ".request.json")) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public List<Call> calls() {
    return calls;
  }

  private static byte[] http(String path, byte[] body) {
    byte[] head =
        ("POST "
                + path
                + " HTTP/1.1\r\nHost: warm-up\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] http = new byte[head.length + body.length];
    System.arraycopy(head, 0, http, 0, head.length);
    System.arraycopy(body, 0, http, head.length, body.length);
    return http;
  }

  /**
   * Sends the training calls round after round for {@code duration}, from {@code threads} threads at once;
   * {@code emptyCache} runs before every other round. Stops early at the first failure of a call (logged), or
   * once {@code stop} says so (a SIGTERM: the calls in flight are drained instead).
   */
  public Summary run(
      LocalConnector connector,
      Duration duration,
      int threads,
      Runnable emptyCache,
      BooleanSupplier stop)
      throws InterruptedException {
    long started = System.nanoTime();
    long until = started + duration.toNanos();
    AtomicLong served = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    List<Thread> drivers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread driver =
          new Thread(
              () -> rounds(connector, until, emptyCache, stop, served, refused), "warm-up-" + i);
      driver.setDaemon(true);
      driver.start();
      drivers.add(driver);
    }
    for (Thread driver : drivers) {
      driver.join();
    }
    return new Summary(served.get(), refused.get(), Duration.ofNanos(System.nanoTime() - started));
  }

  private void rounds(
      LocalConnector connector,
      long until,
      Runnable emptyCache,
      BooleanSupplier stop,
      AtomicLong served,
      AtomicLong refused) {
    try {
      for (long round = 0;
          System.nanoTime() < until && !calls.isEmpty() && !stop.getAsBoolean();
          round++) {
        if (round % 2 == 0) {
          emptyCache.run();
        }
        for (Call call : calls) {
          long left = Math.max(until - System.nanoTime(), TimeUnit.SECONDS.toNanos(1));
          ByteBuffer answer =
              connector.getResponse(ByteBuffer.wrap(call.http()), left, TimeUnit.NANOSECONDS);
          served.incrementAndGet();
          if (!ok(answer)) {
            refused.incrementAndGet();
            LOG.atWarn()
                .addKeyValue("path", call.path())
                .log("warm-up: a training call was not answered with 200");
            return;
          }
          if (System.nanoTime() >= until || stop.getAsBoolean()) {
            return;
          }
        }
      }
    } catch (
        Exception e) { // never fatal: the server is ready without a warm-up, only slower at first
      LOG.atWarn().addKeyValue("error", e.toString()).log("warm-up stopped");
    }
  }

  /** Whether the raw answer's status line says 200. */
  private static boolean ok(ByteBuffer answer) {
    if (answer == null || answer.remaining() < 12) {
      return false;
    }
    byte[] status = new byte[12];
    answer.duplicate().get(status);
    return new String(status, StandardCharsets.US_ASCII).endsWith(" 200");
  }
}

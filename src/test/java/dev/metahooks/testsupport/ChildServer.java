package dev.metahooks.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The hook server in a JVM of its own, started as the image starts it: the Dockerfile's ENTRYPOINT flags with the
 * heap the Deployment's 512 MiB limit gives it ({@code -Xmx384m}). For tests and measurements where memory is the
 * point: what a request does to the heap must be seen under the deployed heap, not the test JVM's.
 */
public final class ChildServer implements AutoCloseable {
  /** The ENTRYPOINT's flags (but the class-data archive, which only the image has) and the deployed heap. */
  public static final List<String> DEPLOYED_FLAGS =
      List.of(
          "-Xmx384m",
          "-XX:MaxRAMPercentage=75",
          "-XX:+ExitOnOutOfMemoryError",
          "-XX:+UseSerialGC",
          "-XX:NewRatio=6",
          "-XX:-UsePerfData");

  private final Process process;
  private final int port;
  private final Path log;

  private ChildServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** This build's server with the deployed flags and {@code env} (name, value, ...), ready to serve. */
  public static ChildServer start(Path dir, String... env) {
    return start(System.getProperty("java.class.path"), dir, env);
  }

  /** The server on {@code classPath} (another build's jar, for a before/after figure). */
  public static ChildServer start(String classPath, Path dir, String... env) {
    return start(classPath, DEPLOYED_FLAGS, dir, env);
  }

  /** The server on {@code classPath} with other JVM flags. */
  public static ChildServer start(
      String classPath, List<String> jvmFlags, Path dir, String... env) {
    try {
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmFlags);
      command.addAll(List.of("-cp", classPath, "dev.metahooks.Main"));
      Path log = dir.resolve("server-" + port + ".log");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      Map<String, String> environment = builder.environment();
      environment.put("METAHOOKS_PORT", String.valueOf(port));
      environment.put("METAHOOKS_LOG_LEVEL", "warn");
      // ready at once (WarmUpTest covers the warm-up); an env argument may set it
      environment.put("METAHOOKS_WARM_UP_MS", "0");
      for (int i = 0; i < env.length; i += 2) {
        environment.put(env[i], env[i + 1]);
      }
      ChildServer child = new ChildServer(builder.start(), port, log);
      child.awaitReady();
      return child;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void awaitReady() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline && process.isAlive()) {
      if (status("/readyz") == 200) {
        return;
      }
      pause(50);
    }
    throw new IllegalStateException("the server did not get ready: " + log());
  }

  public int port() {
    return port;
  }

  public URI uri(String path) {
    return URI.create("http://localhost:" + port + path);
  }

  public boolean alive() {
    return process.isAlive();
  }

  /** Waits up to {@code timeout} for the process to end; its exit code, or -1 while it still runs. */
  public int awaitExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The status of a GET, or -1 when nothing answered within two seconds (a kubelet probe's timeout). */
  public int status(String path) {
    HttpResponse<String> response = fetch(path);
    return response == null ? -1 : response.statusCode();
  }

  /** The body of a GET, or "" when nothing answered within two seconds. */
  public String get(String path) {
    HttpResponse<String> response = fetch(path);
    return response == null ? "" : response.body();
  }

  private HttpResponse<String> fetch(String path) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(2)).build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /**
   * Waits until no admitted call holds body budget any more (a call past its deadline works on until it ends), so
   * that the next attack meets an idle server.
   */
  public void awaitIdle() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (get("/metrics").contains("\nmetahooks_body_budget_used_bytes 0.0")) {
        return;
      }
      pause(100);
    }
    throw new IllegalStateException("body budget still in use after 60 s: " + get("/metrics"));
  }

  /** The most resident memory the process has had, in bytes (VmHWM). */
  public long peakRss() {
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
      return -1;
    } catch (IOException e) {
      return -1;
    }
  }

  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

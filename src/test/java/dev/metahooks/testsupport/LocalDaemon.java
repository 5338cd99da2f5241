package dev.metahooks.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A server from a Debian package (PgBouncer, postgres_exporter) started for one test in its own directory under
 * {@code target/}, on a loopback port the test chose free; as root it runs as the unprivileged user PostgreSQL's
 * tests run as (PgBouncer refuses root). Stopped on {@link #close()}.
 */
public final class LocalDaemon implements AutoCloseable {
  private final Path dir;
  private final Path log;
  private final Process process;

  private LocalDaemon(Path dir, Path log, Process process) {
    this.dir = dir;
    this.log = log;
    this.process = process;
  }

  /**
   * The binary's path; without it the test skips with a message naming the Debian package, unless {@code CI} is
   * set: then it fails.
   */
  public static Path binary(String name, String debianPackage) {
    for (String directory : List.of("/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/sbin")) {
      Path candidate = Path.of(directory, name);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    String message =
        name
            + " is not installed: install Debian's package (apt-get install "
            + debianPackage
            + ")";
    throw MissingComponent.skipOrFail(message);
  }

  /** A new directory {@code target/<under>/<prefix>...} the daemon's user can read. */
  public static Path directory(String under, String prefix) {
    try {
      return PostgresServer.workDirectory(user(), under, prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Makes the directory and everything in it the daemon user's (as root); private keys must be theirs. */
  public static void own(Path dir) {
    user()
        .ifPresent(
            u ->
                PostgresServer.run(
                    List.of("chown", "-R", u + ":", dir.toString()),
                    Map.of(),
                    Duration.ofSeconds(30)));
  }

  /** Runs the command in {@code dir} with the extra environment, its output in {@code <name>.log} there. */
  public static LocalDaemon start(
      Path dir, String name, List<String> command, Map<String, String> environment) {
    own(dir);
    Path log = dir.resolve(name + ".log");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(PostgresServer.as(user(), command))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .directory(dir.toFile());
      builder.environment().putAll(environment);
      return new LocalDaemon(dir, log, builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<String> user() {
    return PostgresServer.isRoot()
        ? Optional.of(PostgresServer.unprivilegedUser())
        : Optional.empty();
  }

  public static int freePort() {
    try {
      return PostgresServer.freePort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until the daemon accepts TCP connections on the port; fails with its log if it stops or never does. */
  public void awaitListening(int port) throws InterruptedException {
    Poll.until(
        "listening on 127.0.0.1:" + port + ", log:\n" + log(),
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError("exited with " + process.exitValue() + ":\n" + log());
          }
          try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
          }
        });
  }

  public Path dir() {
    return dir;
  }

  public String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}

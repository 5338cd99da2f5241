package dev.metahooks.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL server for tests: {@code initdb} in a new directory under {@code target/}, a free
 * loopback port, TLS with a certificate made here, SCRAM-SHA-256 for every TCP login, {@code log_statement = all}
 * and {@code pg_stat_statements} with {@code track_utility = on}, so that a test can look for what must never be
 * logged. One server per test JVM ({@link #shared()}), stopped when the JVM exits.
 *
 * <p>PostgreSQL refuses to run as root: as root (CI), initdb and the server run as the {@code postgres} user (or
 * {@code nobody}) through {@code setpriv}, and the data directory is theirs. Without the binaries the tests skip
 * with a message naming the package, unless {@code CI} is set: then they fail.
 */
public final class PostgresServer {
  public static final String SUPERUSER = "postgres";
  private static PostgresServer shared;

  private final Path bin;
  private final Path dir;
  private final int port;
  private final String superuserPassword;
  private final Process process;
  private final Path log;

  private PostgresServer(
      Path bin, Path dir, int port, String superuserPassword, Process process, Path log) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.superuserPassword = superuserPassword;
    this.process = process;
    this.log = log;
  }

  /** The server of this JVM, started on first use; skips (or fails in CI) when PostgreSQL is not installed. */
  public static synchronized PostgresServer shared() {
    if (shared == null) {
      Optional<Path> bin = binaries();
      if (bin.isEmpty()) {
        String message =
            "PostgreSQL is not installed (initdb and postgres not found under /usr/lib/postgresql/*/bin"
                + " or PG_BIN): install Debian's package (apt-get install postgresql)";
        throw MissingComponent.skipOrFail(message);
      }
      shared = start(bin.get(), Map.of());
      Runtime.getRuntime().addShutdownHook(new Thread(shared::stop));
    }
    return shared;
  }

  /**
   * Another server of its own (a restore target that must start empty), stopped when the JVM exits; skips or fails
   * like {@link #shared()}.
   */
  public static synchronized PostgresServer startNew() {
    return startNew(Map.of());
  }

  /** Another server of its own with these settings too ({@code -c name=value}, e.g. archive_mode). */
  public static synchronized PostgresServer startNew(Map<String, String> settings) {
    shared();
    PostgresServer server = start(shared.bin, settings);
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
    return server;
  }

  /**
   * A server over a data directory that already holds a cluster (a stopped server's, as a retained volume keeps it,
   * or one restored from a base backup), made the server's user's; nothing is created in it.
   * {@code superuserPassword}: the password the cluster's catalog holds.
   */
  public static synchronized PostgresServer startOver(
      Path data, String superuserPassword, Map<String, String> settings) {
    shared();
    Optional<String> user = isRoot() ? Optional.of(unprivilegedUser()) : Optional.empty();
    user.ifPresent(
        u ->
            run(
                List.of("chown", "-R", u + ":", data.getParent().toString()),
                Map.of(),
                Duration.ofSeconds(30)));
    run(List.of("chmod", "700", data.toString()), Map.of(), Duration.ofSeconds(10));
    try {
      PostgresServer server =
          launch(shared.bin, data.getParent(), data, user, superuserPassword, settings, false);
      Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A place for a data directory to restore into, {@code data} under a new directory the server's user reaches. */
  public static Path newDataDirectory() {
    try {
      return workDirectory(
              isRoot() ? Optional.of(unprivilegedUser()) : Optional.empty(), "postgres", "restore-")
          .resolve("data");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code PG_BIN}, else the newest {@code /usr/lib/postgresql/<major>/bin} with initdb and postgres. */
  static Optional<Path> binaries() {
    String given = System.getenv("PG_BIN");
    if (given != null && Files.isExecutable(Path.of(given, "initdb"))) {
      return Optional.of(Path.of(given));
    }
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(root)) {
      return versions
          .filter(v -> v.getFileName().toString().matches("[0-9]+"))
          .sorted(
              Comparator.comparingInt((Path v) -> Integer.parseInt(v.getFileName().toString()))
                  .reversed())
          .map(v -> v.resolve("bin"))
          .filter(
              b ->
                  Files.isExecutable(b.resolve("initdb"))
                      && Files.isExecutable(b.resolve("postgres")))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static PostgresServer start(Path bin, Map<String, String> settings) {
    try {
      Optional<String> user = isRoot() ? Optional.of(unprivilegedUser()) : Optional.empty();
      Path dir = workDirectory(user);
      Path data = dir.resolve("data");
      String password = "test-" + Long.toHexString(System.nanoTime());
      Path passwordFile = dir.resolve("superuser-password");
      Files.writeString(passwordFile, password + "\n");
      user.ifPresent(
          u ->
              run(
                  List.of("chown", "-R", u + ":", dir.toString()),
                  Map.of(),
                  Duration.ofSeconds(30)));
      run(
          as(
              user,
              List.of(
                  bin.resolve("initdb").toString(),
                  "-D",
                  data.toString(),
                  "-U",
                  SUPERUSER,
                  "--pwfile=" + passwordFile,
                  "--auth-host=scram-sha-256",
                  "--auth-local=trust",
                  "-E",
                  "UTF8",
                  "--locale=C",
                  "--no-sync")),
          Map.of(),
          Duration.ofMinutes(2));
      Files.writeString(
          data.resolve("pg_hba.conf"),
          """
          # TLS and SCRAM-SHA-256 only, as a login must prove the stored verifier
          hostssl all all 127.0.0.1/32 scram-sha-256
          hostnossl all all all reject
          """);
      certificate(data, user);
      return launch(bin, dir, data, user, password, settings, true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static PostgresServer launch(
      Path bin,
      Path dir,
      Path data,
      Optional<String> user,
      String password,
      Map<String, String> settings,
      boolean fresh)
      throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = freePort();
      Path log = dir.resolve("server-" + port + ".log");
      List<String> command =
          new ArrayList<>(
              List.of(
                  bin.resolve("postgres").toString(),
                  "-D",
                  data.toString(),
                  "-c",
                  "listen_addresses=127.0.0.1",
                  "-c",
                  "port=" + port,
                  "-c",
                  "unix_socket_directories=",
                  "-c",
                  "ssl=on",
                  "-c",
                  "ssl_cert_file=server.crt",
                  "-c",
                  "ssl_key_file=server.key",
                  "-c",
                  "shared_preload_libraries=pg_stat_statements",
                  "-c",
                  "pg_stat_statements.track_utility=on",
                  "-c",
                  "log_statement=all",
                  "-c",
                  "log_connections=on",
                  "-c",
                  "logging_collector=off",
                  "-c",
                  "fsync=off",
                  "-c",
                  "synchronous_commit=off",
                  "-c",
                  "full_page_writes=off",
                  "-c",
                  "max_connections=40",
                  "-c",
                  "shared_buffers=32MB"));
      new java.util.TreeMap<>(settings)
          .forEach((name, value) -> command.addAll(List.of("-c", name + "=" + value)));
      Process process =
          new ProcessBuilder(as(user, command))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      PostgresServer server = new PostgresServer(bin, dir, port, password, process, log);
      if (server.awaitReady(Duration.ofSeconds(60))) {
        if (fresh) {
          server.query("CREATE EXTENSION pg_stat_statements");
        }
        return server;
      }
      server.stop();
      last =
          new IOException(
              "PostgreSQL did not start on port " + port + ":\n" + Files.readString(log));
    }
    throw last;
  }

  /** A self-signed certificate (the server's key must belong to the server's user, mode 0600). */
  private static void certificate(Path data, Optional<String> user) {
    run(
        List.of(
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            data.resolve("server.key").toString(),
            "-out",
            data.resolve("server.crt").toString()),
        Map.of(),
        Duration.ofMinutes(1));
    run(
        List.of("chmod", "600", data.resolve("server.key").toString()),
        Map.of(),
        Duration.ofSeconds(10));
    user.ifPresent(
        u ->
            run(
                List.of(
                    "chown",
                    u + ":",
                    data.resolve("server.key").toString(),
                    data.resolve("server.crt").toString(),
                    data.resolve("pg_hba.conf").toString()),
                Map.of(),
                Duration.ofSeconds(10)));
  }

  /**
   * A new directory under target/; when the server's user cannot reach target/ (a home directory closed to
   * others), under the system's temporary directory instead.
   */
  private static Path workDirectory(Optional<String> user) throws IOException {
    return workDirectory(user, "postgres", "server-");
  }

  /** A new directory {@code target/<under>/<prefix>...} that the given user can reach. */
  static Path workDirectory(Optional<String> user, String under, String prefix) throws IOException {
    Path base = Resources.projectDir().resolve("target").resolve(under);
    Files.createDirectories(base);
    if (user.isPresent()) {
      Result reach =
          exec(as(user, List.of("test", "-x", base.toString())), Map.of(), Duration.ofSeconds(10));
      if (reach.exitCode() != 0) {
        base = Files.createTempDirectory("metahooks-postgres");
        run(List.of("chmod", "755", base.toString()), Map.of(), Duration.ofSeconds(10));
      }
    }
    return Files.createTempDirectory(base, prefix);
  }

  static boolean isRoot() {
    return exec(List.of("id", "-u"), Map.of(), Duration.ofSeconds(10)).output().strip().equals("0");
  }

  static String unprivilegedUser() {
    return exec(List.of("id", "-u", "postgres"), Map.of(), Duration.ofSeconds(10)).exitCode() == 0
        ? "postgres"
        : "nobody";
  }

  /** The command as the given user: setpriv execs it in place, so stopping the process stops the server. */
  static List<String> as(Optional<String> user, List<String> command) {
    if (user.isEmpty()) {
      return command;
    }
    List<String> wrapped =
        new ArrayList<>(
            List.of(
                "setpriv",
                "--reuid=" + user.get(),
                "--regid=" + user.get(),
                "--init-groups",
                "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private boolean awaitReady(Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline) && process.isAlive()) {
      Result ready =
          exec(
              List.of(
                  bin.resolve("pg_isready").toString(),
                  "-q",
                  "-h",
                  "127.0.0.1",
                  "-p",
                  String.valueOf(port)),
              Map.of(),
              Duration.ofSeconds(10));
      if (ready.exitCode() == 0) {
        return true;
      }
      sleep(Duration.ofMillis(200));
    }
    return false;
  }

  /** Stops the server (fast shutdown: SIGINT) and waits for it. */
  public synchronized void stop() {
    if (process.isAlive()) {
      try {
        new ProcessBuilder("kill", "-INT", String.valueOf(process.pid()))
            .start()
            .waitFor(10, TimeUnit.SECONDS);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (IOException e) {
        process.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }

  /**
   * Serves another certificate and key: they replace the server's files and PostgreSQL reloads its configuration
   * (SIGHUP), as Spilo's test_reload_ssl.sh does when a mounted certificate changes; the server does not restart.
   * New connections get the new certificate once the reload is processed (poll for it).
   */
  public synchronized void serveCertificate(Path certificate, Path key) {
    Path data = dir.resolve("data");
    Optional<String> user = isRoot() ? Optional.of(unprivilegedUser()) : Optional.empty();
    try {
      Files.copy(
          certificate,
          data.resolve("server.crt"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.copy(
          key, data.resolve("server.key"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    run(
        List.of("chmod", "600", data.resolve("server.key").toString()),
        Map.of(),
        Duration.ofSeconds(10));
    user.ifPresent(
        u ->
            run(
                List.of(
                    "chown",
                    u + ":",
                    data.resolve("server.key").toString(),
                    data.resolve("server.crt").toString()),
                Map.of(),
                Duration.ofSeconds(10)));
    query("SELECT pg_reload_conf()");
  }

  /** The certificate and key the server was started with (copies, to serve again with {@link #serveCertificate}). */
  public List<Path> currentCertificate(Path into) {
    try {
      Path data = dir.resolve("data");
      Files.createDirectories(into);
      Path crt =
          Files.copy(
              data.resolve("server.crt"),
              into.resolve("original.crt"),
              java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Path key =
          Files.copy(
              data.resolve("server.key"),
              into.resolve("original.key"),
              java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      return List.of(crt, key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int port() {
    return port;
  }

  /** The server's data directory. */
  public Path dataDirectory() {
    return dir.resolve("data");
  }

  /**
   * A copy of the running server's data directory, consistent (pg_basebackup, its WAL streamed along), in a new
   * directory {@code data} under {@code target/postgres/}, owned by the server's user. The server must accept
   * replication connections of the superuser.
   */
  public Path baseBackup() {
    try {
      Optional<String> user = isRoot() ? Optional.of(unprivilegedUser()) : Optional.empty();
      Path copy = workDirectory(user, "postgres", "copy-").resolve("data");
      user.ifPresent(
          u ->
              run(
                  List.of("chown", u + ":", copy.getParent().toString()),
                  Map.of(),
                  Duration.ofSeconds(10)));
      Map<String, String> env = new java.util.HashMap<>(environment(SUPERUSER, "postgres"));
      env.put("PGPASSWORD", superuserPassword);
      env.put("HOME", copy.getParent().toString());
      run(
          as(
              user,
              List.of(
                  bin.resolve("pg_basebackup").toString(),
                  "-D",
                  copy.toString(),
                  "-X",
                  "stream",
                  "-c",
                  "fast",
                  "--no-sync")),
          env,
          Duration.ofMinutes(2));
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Path bin() {
    return bin;
  }

  public String superuserPassword() {
    return superuserPassword;
  }

  /** The major version of the server. */
  public int majorVersion() {
    return Integer.parseInt(query("SHOW server_version_num").strip()) / 10000;
  }

  /** Everything the server logged so far. */
  public String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** libpq's environment for a TLS connection to this server as the given user. */
  public Map<String, String> environment(String user, String database) {
    return Map.of(
        "PGHOST",
        "127.0.0.1",
        "PGPORT",
        String.valueOf(port),
        "PGUSER",
        user,
        "PGDATABASE",
        database,
        "PGSSLMODE",
        "require",
        "PGCONNECT_TIMEOUT",
        "10");
  }

  /** Runs SQL as the superuser in {@code postgres}; the unaligned, tuples-only output. Fails on an error. */
  public String query(String sql) {
    return query("postgres", sql);
  }

  public String query(String database, String sql) {
    Result result = psql(SUPERUSER, superuserPassword, database, sql);
    if (result.exitCode() != 0) {
      throw new AssertionError(
          "psql failed (" + result.exitCode() + ") for: " + sql + "\n" + result.output());
    }
    return result.output();
  }

  /**
   * Runs SQL as a user with a password; the exit code and output, for tests that expect a refusal. An ASCII
   * password goes in PGPASSWORD; any other through a password file, so that it reaches libpq byte for byte
   * whatever the JVM's locale.
   */
  public Result psql(String user, String password, String database, String sql) {
    List<String> command =
        List.of(
            bin.resolve("psql").toString(), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql);
    Map<String, String> env = new java.util.HashMap<>(environment(user, database));
    if (password.chars().allMatch(c -> c < 0x80)) {
      env.put("PGPASSWORD", password);
      return exec(command, env, Duration.ofMinutes(1));
    }
    try {
      Path passFile = Files.createTempFile(dir, "pgpass-", "");
      try {
        Files.writeString(
            passFile,
            "*:*:*:*:" + password.replace("\\", "\\\\").replace(":", "\\:") + "\n",
            StandardCharsets.UTF_8);
        run(List.of("chmod", "600", passFile.toString()), Map.of(), Duration.ofSeconds(10));
        env.put("PGPASSFILE", passFile.toString());
        return exec(command, env, Duration.ofMinutes(1));
      } finally {
        Files.deleteIfExists(passFile);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Output (standard output and error together) and exit code of a finished process. */
  public record Result(int exitCode, String output) {}

  /**
   * Runs a command with extra environment variables, waiting at most {@code timeout} (the output goes to a file,
   * so that a command that never ends cannot block the reader).
   */
  public static Result exec(
      List<String> command, Map<String, String> environment, Duration timeout) {
    return exec(command, environment, timeout, true);
  }

  /** As above; without {@code inherit} the process sees only {@code environment}, not this JVM's variables. */
  public static Result exec(
      List<String> command, Map<String, String> environment, Duration timeout, boolean inherit) {
    Path output = null;
    try {
      output = Files.createTempFile("metahooks-exec-", ".out");
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      if (!inherit) {
        builder.environment().clear();
      }
      builder.environment().putAll(environment);
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "timed out after " + timeout + ": " + command + "\n" + Files.readString(output));
      }
      return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted: " + command, e);
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          // a temporary file left behind is harmless
        }
      }
    }
  }

  static void run(List<String> command, Map<String, String> environment, Duration timeout) {
    Result result = exec(command, environment, timeout);
    if (result.exitCode() != 0) {
      throw new IllegalStateException(
          String.join(" ", command) + " failed (" + result.exitCode() + "):\n" + result.output());
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

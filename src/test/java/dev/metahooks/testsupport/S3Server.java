package dev.metahooks.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real S3 API for tests: the npm package {@code s3rver} on a free loopback port (it binds port 0 and says which
 * port it got), its data in a new directory under {@code target/s3rver/}, one bucket made at start, and the AWS CLI
 * ({@code aws}, Debian's {@code awscli}) to look into it. s3rver knows one account, {@link #ACCESS_KEY_ID}; it
 * refuses any other key id, but does not verify Signature Version 4 signatures, so a wrong secret key alone is not
 * noticed. Without s3rver or the AWS CLI the tests skip with a message naming what to install, unless {@code CI}
 * is set: then they fail.
 */
public final class S3Server implements AutoCloseable {
  public static final String ACCESS_KEY_ID = "S3RVER";
  public static final String SECRET_ACCESS_KEY = "S3RVER";

  /** Where {@code .ci/run} installs s3rver (npm install --prefix). */
  static final Path INSTALL =
      Path.of(System.getProperty("user.home"), ".cache", "metahooks-s3rver");

  private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:([0-9]+)");

  private final Process process;
  private final Path log;
  private final int port;
  private final String aws;

  private S3Server(Process process, Path log, int port, String aws) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.aws = aws;
  }

  /** Starts s3rver with the bucket; skips (or fails in CI) when s3rver, node or the AWS CLI is missing. */
  public static S3Server start(String bucket) {
    Optional<Path> s3rver = binary();
    Optional<String> aws = awsCli();
    if (s3rver.isEmpty() || aws.isEmpty()) {
      String message =
          (s3rver.isEmpty()
                  ? "s3rver is not installed (npm install --prefix "
                      + INSTALL
                      + " s3rver@3.7.1,"
                      + " or set S3RVER to its bin/s3rver)"
                  : "")
              + (aws.isEmpty()
                  ? " the AWS CLI is not installed (apt-get install" + " awscli)"
                  : "");
      throw MissingComponent.skipOrFail(message);
    }
    try {
      Path base = Resources.projectDir().resolve("target").resolve("s3rver");
      Files.createDirectories(base);
      Path dir = Files.createTempDirectory(base, "s3-");
      Path log = dir.resolve("s3rver.log");
      Process process =
          new ProcessBuilder(
                  List.of(
                      s3rver.get().toString(),
                      "--directory",
                      dir.resolve("data").toString(),
                      "--address",
                      "127.0.0.1",
                      "--port",
                      "0",
                      "--configure-bucket",
                      bucket))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      while (Instant.now().isBefore(deadline) && process.isAlive()) {
        Matcher listening = LISTENING.matcher(Files.readString(log));
        if (listening.find()) {
          return new S3Server(process, log, Integer.parseInt(listening.group(1)), aws.get());
        }
        PostgresServer.sleep(Duration.ofMillis(100));
      }
      process.destroyForcibly();
      throw new IllegalStateException("s3rver did not start:\n" + Files.readString(log));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Optional<Path> binary() {
    String given = System.getenv("S3RVER");
    Path path = given != null ? Path.of(given) : INSTALL.resolve("node_modules/.bin/s3rver");
    return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
  }

  /** Debian's AWS CLI first (another on the PATH may be an unrelated version). */
  static Optional<String> awsCli() {
    if (Files.isExecutable(Path.of("/usr/bin/aws"))) {
      return Optional.of("/usr/bin/aws");
    }
    PostgresServer.Result which =
        PostgresServer.exec(
            List.of("sh", "-c", "command -v aws"), Map.of(), Duration.ofSeconds(10));
    return which.exitCode() == 0 ? Optional.of(which.output().strip()) : Optional.empty();
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** The directory holding the AWS CLI, to put first on a script's PATH. */
  public Path awsDirectory() {
    return Path.of(aws).getParent();
  }

  /** The object at {@code s3://bucket/key}, downloaded with the AWS CLI into {@code file}. */
  public void download(String bucket, String key, Path file) {
    copy("s3://" + bucket + "/" + key, file.toString());
  }

  /** Uploads {@code file} to {@code s3://bucket/key} with the AWS CLI. */
  public void upload(Path file, String bucket, String key) {
    copy(file.toString(), "s3://" + bucket + "/" + key);
  }

  private void copy(String from, String to) {
    PostgresServer.Result copied =
        PostgresServer.exec(
            List.of(aws, "--endpoint-url", endpoint(), "s3", "cp", "--quiet", from, to),
            credentials(),
            Duration.ofMinutes(1));
    if (copied.exitCode() != 0) {
      throw new AssertionError("aws s3 cp " + from + " " + to + " failed:\n" + copied.output());
    }
  }

  private static Map<String, String> credentials() {
    return Map.of(
        "AWS_ACCESS_KEY_ID",
        ACCESS_KEY_ID,
        "AWS_SECRET_ACCESS_KEY",
        SECRET_ACCESS_KEY,
        "AWS_DEFAULT_REGION",
        "us-east-1",
        "HOME",
        System.getProperty("java.io.tmpdir"));
  }

  /** The keys under {@code s3://bucket/prefix}, listed with the AWS CLI, sorted. */
  public List<String> keys(String bucket, String prefix) {
    PostgresServer.Result listed =
        PostgresServer.exec(
            List.of(
                aws,
                "--endpoint-url",
                endpoint(),
                "s3api",
                "list-objects-v2",
                "--bucket",
                bucket,
                "--prefix",
                prefix,
                "--query",
                "Contents[].Key",
                "--output",
                "text"),
            credentials(),
            Duration.ofMinutes(1));
    if (listed.exitCode() != 0) {
      throw new AssertionError("aws s3api list-objects-v2 failed:\n" + listed.output());
    }
    List<String> keys = new ArrayList<>();
    for (String key : listed.output().strip().split("\\s+")) {
      if (!key.isEmpty() && !key.equals("None")) {
        keys.add(key);
      }
    }
    keys.sort(null);
    return keys;
  }

  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}

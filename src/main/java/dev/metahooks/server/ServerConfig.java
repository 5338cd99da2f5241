package dev.metahooks.server;

import dev.metahooks.api.AnswerSize;
import dev.metahooks.logging.JsonLogging;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings read from the environment, each with a default that works without configuration.
 *
 * @param port {@code METAHOOKS_PORT}, default 8080
 * @param maxBodyBytes {@code METAHOOKS_MAX_BODY_BYTES}, default the body budget, at most 64 MiB (41 MiB under the
 *     Deployment's 384 MiB heap). Metacontroller sends whole objects with no limit of its own (a CatSet of 10,000
 *     pods is about 39 MB), so the default is as large as the heap allows one body to be.
 * @param maxConcurrentHooks {@code METAHOOKS_MAX_CONCURRENT_HOOKS}, default four per core (at least 8): hook calls
 *     computing or waiting for a compute slot; a slot is taken once the whole body is in and given back once the
 *     hook has computed. A call beyond it waits up to a fifth of the deadline for a slot, then gets 429 with
 *     Retry-After, which Metacontroller honours without counting an error
 * @param hookDeadline {@code METAHOOKS_HOOK_DEADLINE_MS}, default 5000: a call not answered by then gets 503,
 *     well before Metacontroller's own 10 s timeout, so it retries instead of waiting on a stuck call (from the
 *     environment it must be below that timeout)
 * @param idleTimeout {@code METAHOOKS_IDLE_TIMEOUT_MS}, default 30000: a connection silent that long is closed
 * @param shutdownDelay {@code METAHOOKS_SHUTDOWN_DELAY_MS}, default 3000: after SIGTERM, readiness fails and
 *     calls are still served this long, while Kubernetes takes the pod out of the Service
 * @param shutdownTimeout {@code METAHOOKS_SHUTDOWN_TIMEOUT_MS}, default 10000: then the port takes no new
 *     connection, calls on open ones are still served, and calls in flight get this long to finish
 * @param tokenFile {@code METAHOOKS_TOKEN_FILE}: when set, hook calls need {@code Authorization: Bearer <token>}
 * @param tls {@code METAHOOKS_TLS_CERT_FILE}, {@code METAHOOKS_TLS_KEY_FILE} (PEM): when set, the port speaks
 *     HTTPS; with {@code METAHOOKS_TLS_CLIENT_CA_FILE}, clients must present a certificate signed by that CA
 * @param fileCheckInterval {@code METAHOOKS_FILE_CHECK_INTERVAL_MS}, default 10000: how often the token and
 *     certificate files are checked for changes (rotated Secrets are picked up without a restart)
 * @param logBodies {@code METAHOOKS_LOG_BODIES=true}: log request and response bodies (Secrets redacted); the
 *     log levels, {@code METAHOOKS_LOG_LEVEL} and {@code METAHOOKS_LIBRARY_LOG_LEVEL}, are checked here and
 *     applied by {@link JsonLogging}
 * @param managementPort {@code METAHOOKS_MANAGEMENT_PORT}: when set, probes and metrics are also served there
 *     over plain HTTP, and hooks are not; kubelet probes cannot present a client certificate
 * @param responseCacheBytes {@code METAHOOKS_RESPONSE_CACHE_BYTES}, default 32 MiB, 0 turns it off: recent
 *     answers kept by request hash, so that a resync of an unchanged world is answered without running the hook
 *     (one answer may take at most half of it: thousands of ordinary answers, or the 10 MB answer for 10,000 Pods)
 * @param bodyBudgetBytes {@code METAHOOKS_BODY_BUDGET_BYTES}, default a ninth of the heap: request bodies held in
 *     memory at once, taken from {@code Content-Length} (or as a chunked body grows) before the body is read; a
 *     call beyond it waits as for a hook slot, then gets 429 with Retry-After (docs/reliability.md has the sizing)
 * @param maxResponseBytes {@code METAHOOKS_MAX_RESPONSE_BYTES}, default a heap share per compute slot (10 MiB
 *     under 384 MiB on two cores): a larger answer is refused with 422 naming the field that makes it large, while
 *     it is estimated or written, never after it was built whole
 * @param writeTimeout {@code METAHOOKS_WRITE_TIMEOUT_MS}, default 5000: an answer the client does not take within
 *     this long, however slowly it reads, ends its connection (a reset), logged and counted, so that it frees its
 *     thread
 * @param recording {@code METAHOOKS_RECORD_DIR} and its bounds: off by default; see {@link Recording}
 */
public record ServerConfig(int port, long maxBodyBytes, int maxConcurrentHooks, Duration hookDeadline,
    Duration idleTimeout, Duration shutdownDelay, Duration shutdownTimeout, Path tokenFile, Tls tls,
    Duration fileCheckInterval, boolean logBodies, int managementPort, long responseCacheBytes,
    long bodyBudgetBytes, long maxResponseBytes, Duration writeTimeout, Recording recording) {

  /** Metacontroller gives up on a hook call after this long (its default {@code webhook.timeout}). */
  public static final Duration METACONTROLLER_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_PORT = 8080;
  private static final String PREFIX = "METAHOOKS_";
  private static final Logger LOG = LoggerFactory.getLogger(ServerConfig.class);
  /** The largest default body limit; under a smaller heap the body budget is the limit. */
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;
  public static final long DEFAULT_RESPONSE_CACHE_BYTES = 32L * 1024 * 1024;
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  /** HTTPS settings; {@code clientCaFile} null means client certificates are not asked for. */
  public record Tls(Path certFile, Path keyFile, Path clientCaFile) {}

  /**
   * Recording of sampled calls ({@link Recorder}): {@code METAHOOKS_RECORD_DIR} (null: off, the default), one call in
   * {@code METAHOOKS_RECORD_SAMPLE} (default 1, every call), and at most {@code METAHOOKS_RECORD_MAX_FILES} (default
   * 1000) files of at most {@code METAHOOKS_RECORD_MAX_BYTES} (default 256 MiB) in all; the oldest go first.
   */
  public record Recording(Path dir, int sample, int maxFiles, long maxBytes) {
    public static final Recording OFF = new Recording(null, 1, 1000, 256L * 1024 * 1024);

    public Recording {
      require(sample > 0, "METAHOOKS_RECORD_SAMPLE must be positive, got " + sample);
      require(maxFiles > 0, "METAHOOKS_RECORD_MAX_FILES must be positive, got " + maxFiles);
      require(maxBytes > 0, "METAHOOKS_RECORD_MAX_BYTES must be positive, got " + maxBytes);
    }

    public boolean enabled() {
      return dir != null;
    }

    public Recording in(Path directory) {
      return new Recording(directory, sample, maxFiles, maxBytes);
    }
  }

  public ServerConfig {
    require(port >= 0 && port <= 65535, "METAHOOKS_PORT must be 0..65535, got " + port);
    require(maxBodyBytes > 0 && maxBodyBytes <= MAX_ARRAY, "METAHOOKS_MAX_BODY_BYTES must be 1.." + MAX_ARRAY
        + " (a body is read into one array), got " + maxBodyBytes);
    require(maxConcurrentHooks > 0, "METAHOOKS_MAX_CONCURRENT_HOOKS must be positive, got " + maxConcurrentHooks);
    require(!hookDeadline.isNegative() && !hookDeadline.isZero(), "METAHOOKS_HOOK_DEADLINE_MS must be positive");
    require(!idleTimeout.isNegative() && !idleTimeout.isZero(), "METAHOOKS_IDLE_TIMEOUT_MS must be positive");
    require(!shutdownDelay.isNegative(), "METAHOOKS_SHUTDOWN_DELAY_MS must not be negative");
    require(!shutdownTimeout.isNegative(), "METAHOOKS_SHUTDOWN_TIMEOUT_MS must not be negative");
    require(!fileCheckInterval.isNegative() && !fileCheckInterval.isZero(),
        "METAHOOKS_FILE_CHECK_INTERVAL_MS must be positive");
    require(managementPort >= 0 && managementPort <= 65535, "METAHOOKS_MANAGEMENT_PORT must be 0..65535");
    require(managementPort == 0 || managementPort != port, "METAHOOKS_MANAGEMENT_PORT must differ from METAHOOKS_PORT");
    require(responseCacheBytes >= 0, "METAHOOKS_RESPONSE_CACHE_BYTES must not be negative");
    require(bodyBudgetBytes >= maxBodyBytes, "METAHOOKS_BODY_BUDGET_BYTES (" + bodyBudgetBytes
        + ") must be at least METAHOOKS_MAX_BODY_BYTES (" + maxBodyBytes + "), or the largest body is never admitted");
    require(maxResponseBytes > 0, "METAHOOKS_MAX_RESPONSE_BYTES must be positive, got " + maxResponseBytes);
    require(!writeTimeout.isNegative() && !writeTimeout.isZero(), "METAHOOKS_WRITE_TIMEOUT_MS must be positive");
  }

  /**
   * Calls that parse, run and write at once: the work is CPU-bound, so more than the cores (at least two, so that
   * a small call is not stuck behind a large one) gains no throughput, and each holds a request tree and an answer.
   */
  public int computeSlots() {
    return Math.min(maxConcurrentHooks, defaultComputeSlots());
  }

  private static int defaultComputeSlots() {
    return Math.max(2, Runtime.getRuntime().availableProcessors());
  }

  /** A ninth of the heap (42 MiB of 378.6 MiB usable under -Xmx384m); docs/reliability.md shows the sum. */
  static long defaultBodyBudget() {
    return Runtime.getRuntime().maxMemory() / 9;
  }

  public static ServerConfig defaults() {
    long budget = defaultBodyBudget();
    return new ServerConfig(DEFAULT_PORT, Math.min(DEFAULT_MAX_BODY_BYTES, budget), defaultConcurrency(),
        Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(3), Duration.ofSeconds(10), null, null,
        Duration.ofSeconds(10), false, 0, DEFAULT_RESPONSE_CACHE_BYTES, budget, AnswerSize.defaultLimit(),
        Duration.ofSeconds(5), Recording.OFF);
  }

  /**
   * Reads and checks the environment. Every {@code METAHOOKS_} variable is read here, which makes this the one
   * list of them: a value the variable does not take, or a file that cannot be read, is a
   * {@link ConfigurationException} that names the variable; any other {@code METAHOOKS_} variable is reported
   * as unknown (a warning: most likely a misspelt name whose setting is not applied).
   */
  public static ServerConfig fromEnvironment(Map<String, String> variables) {
    Environment env = new Environment(variables);
    ServerConfig config = read(env);
    for (String name : env.unread()) {
      LOG.atWarn().addKeyValue("variable", name).log("unknown setting " + name + " is ignored");
    }
    return config;
  }

  /** Every variable the server reads (the README's Configuration table lists them). */
  public static Set<String> variables() {
    Environment env = new Environment(Map.of());
    read(env);
    return Set.copyOf(env.read);
  }

  private static ServerConfig read(Environment env) {
    ServerConfig d = defaults();
    level(env, JsonLogging.LEVEL_VARIABLE);
    level(env, JsonLogging.LIBRARY_LEVEL_VARIABLE);
    Path cert = file(env, "METAHOOKS_TLS_CERT_FILE");
    Path key = file(env, "METAHOOKS_TLS_KEY_FILE");
    Path clientCa = file(env, "METAHOOKS_TLS_CLIENT_CA_FILE");
    require((cert == null) == (key == null), "METAHOOKS_TLS_CERT_FILE and METAHOOKS_TLS_KEY_FILE go together");
    require(clientCa == null || cert != null, "METAHOOKS_TLS_CLIENT_CA_FILE needs METAHOOKS_TLS_CERT_FILE");
    Duration deadline = millis(env, "METAHOOKS_HOOK_DEADLINE_MS", d.hookDeadline);
    require(deadline.compareTo(METACONTROLLER_TIMEOUT) < 0, "METAHOOKS_HOOK_DEADLINE_MS must be below "
        + METACONTROLLER_TIMEOUT.toMillis() + ", Metacontroller's own timeout, so that its 503 arrives first; got "
        + deadline.toMillis());
    long budget = number(env, "METAHOOKS_BODY_BUDGET_BYTES", d.bodyBudgetBytes);
    WarmUp.parse(env.get(WarmUp.VARIABLE)); // checked with the others; Metahooks.serve hands it to the server
    return new ServerConfig(
        port(env, "METAHOOKS_PORT", d.port),
        number(env, "METAHOOKS_MAX_BODY_BYTES", Math.min(DEFAULT_MAX_BODY_BYTES, budget)),
        integer(env, "METAHOOKS_MAX_CONCURRENT_HOOKS", d.maxConcurrentHooks),
        deadline,
        millis(env, "METAHOOKS_IDLE_TIMEOUT_MS", d.idleTimeout),
        millis(env, "METAHOOKS_SHUTDOWN_DELAY_MS", d.shutdownDelay),
        millis(env, "METAHOOKS_SHUTDOWN_TIMEOUT_MS", d.shutdownTimeout),
        file(env, "METAHOOKS_TOKEN_FILE"),
        cert == null ? null : new Tls(cert, key, clientCa),
        millis(env, "METAHOOKS_FILE_CHECK_INTERVAL_MS", d.fileCheckInterval),
        bool(env, "METAHOOKS_LOG_BODIES", d.logBodies),
        port(env, "METAHOOKS_MANAGEMENT_PORT", d.managementPort),
        number(env, "METAHOOKS_RESPONSE_CACHE_BYTES", d.responseCacheBytes),
        budget,
        number(env, "METAHOOKS_MAX_RESPONSE_BYTES", d.maxResponseBytes),
        millis(env, "METAHOOKS_WRITE_TIMEOUT_MS", d.writeTimeout),
        recording(env, d.recording));
  }

  /** The recording directory is created if missing, and must be writable now: a typo fails at start. */
  private static Recording recording(Environment env, Recording d) {
    String dir = env.get("METAHOOKS_RECORD_DIR");
    Recording read = new Recording(null, integer(env, "METAHOOKS_RECORD_SAMPLE", d.sample()),
        integer(env, "METAHOOKS_RECORD_MAX_FILES", d.maxFiles()), number(env, "METAHOOKS_RECORD_MAX_BYTES", d.maxBytes()));
    if (dir == null) {
      return read;
    }
    try {
      Path path = Files.createDirectories(Path.of(dir));
      require(Files.isWritable(path), "METAHOOKS_RECORD_DIR: " + path + " cannot be written by this process");
      return read.in(path);
    } catch (InvalidPathException | java.io.IOException e) {
      throw new ConfigurationException("METAHOOKS_RECORD_DIR: cannot use '" + dir + "': " + e.getMessage());
    }
  }

  public ServerConfig withRecording(Recording value) {
    return new ServerConfig(port, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, value);
  }

  /** The environment, remembering which variables were read, so that the others can be reported. */
  private static final class Environment {
    private final Map<String, String> variables;
    private final Set<String> read = new HashSet<>();

    Environment(Map<String, String> variables) {
      this.variables = variables;
    }

    /** The value, trimmed; null when unset or blank. */
    String get(String name) {
      read.add(name);
      String value = variables.get(name);
      return value == null || value.isBlank() ? null : value.trim();
    }

    List<String> unread() {
      return variables.keySet().stream().filter(name -> name.startsWith(PREFIX) && !read.contains(name))
          .sorted().toList();
    }
  }

  private static int defaultConcurrency() {
    return Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
  }

  public ServerConfig withPort(int value) {
    return new ServerConfig(value, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, recording);
  }

  /** A body limit; the body budget grows with it when needed, so that the largest body can be admitted. */
  public ServerConfig withMaxBodyBytes(long value) {
    return new ServerConfig(port, value, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort, responseCacheBytes,
        Math.max(bodyBudgetBytes, value), maxResponseBytes, writeTimeout, recording);
  }

  /** The memory bounds: bodies in memory at once (the body limit shrinks to it when needed) and one answer. */
  public ServerConfig withMemory(long bodyBudget, long maxResponse) {
    return new ServerConfig(port, Math.min(maxBodyBytes, bodyBudget), maxConcurrentHooks, hookDeadline, idleTimeout,
        shutdownDelay, shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort,
        responseCacheBytes, bodyBudget, maxResponse, writeTimeout, recording);
  }

  public ServerConfig withWriteTimeout(Duration value) {
    return new ServerConfig(port, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, value, recording);
  }

  public ServerConfig withLimits(int concurrentHooks, Duration deadline, Duration idle) {
    return new ServerConfig(port, maxBodyBytes, concurrentHooks, deadline, idle, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, recording);
  }

  public ServerConfig withShutdown(Duration delay, Duration timeout) {
    return new ServerConfig(port, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, delay,
        timeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, recording);
  }

  public ServerConfig withSecurity(Path token, Tls https, Duration checkInterval) {
    return new ServerConfig(port, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, token, https, checkInterval, logBodies, managementPort, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, recording);
  }

  public ServerConfig withLogBodies(boolean value) {
    return new ServerConfig(port, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, value, managementPort, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, recording);
  }

  public ServerConfig withManagementPort(int value) {
    return new ServerConfig(port, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, value, responseCacheBytes,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, recording);
  }

  public ServerConfig withResponseCacheBytes(long value) {
    return new ServerConfig(port, maxBodyBytes, maxConcurrentHooks, hookDeadline, idleTimeout, shutdownDelay,
        shutdownTimeout, tokenFile, tls, fileCheckInterval, logBodies, managementPort, value,
        bodyBudgetBytes, maxResponseBytes, writeTimeout, recording);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new ConfigurationException(message);
    }
  }

  /** A file the server reads (a token, a certificate, a key): it must exist and be readable now. */
  private static Path file(Environment env, String name) {
    String value = env.get(name);
    if (value == null) {
      return null;
    }
    Path file;
    try {
      file = Path.of(value);
    } catch (InvalidPathException e) {
      throw new ConfigurationException(name + ": '" + value + "' is not a path: " + e.getReason());
    }
    if (!Files.isRegularFile(file)) {
      throw new ConfigurationException(name + ": " + file + " does not exist or is not a file");
    }
    if (!Files.isReadable(file)) {
      throw new ConfigurationException(name + ": " + file + " cannot be read by this process");
    }
    return file;
  }

  private static void level(Environment env, String name) {
    String value = env.get(name);
    require(value == null || JsonLogging.isLevel(value),
        name + " must be one of error, warn, info, debug, trace; got '" + value + "'");
  }

  private static boolean bool(Environment env, String name, boolean fallback) {
    String value = env.get(name);
    if (value == null) {
      return fallback;
    }
    require(value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"),
        name + " must be true or false, got '" + value + "'");
    return value.equalsIgnoreCase("true");
  }

  private static int port(Environment env, String name, int fallback) {
    long port = number(env, name, fallback);
    require(port >= 0 && port <= 65535, name + " must be 0..65535, got " + port);
    return (int) port;
  }

  private static int integer(Environment env, String name, int fallback) {
    long value = number(env, name, fallback);
    require(value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE, name + " is too large: " + value);
    return (int) value;
  }

  private static Duration millis(Environment env, String name, Duration fallback) {
    return Duration.ofMillis(number(env, name, fallback.toMillis()));
  }

  private static long number(Environment env, String name, long fallback) {
    String value = env.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new ConfigurationException(name + " must be a whole number, got '" + value + "'");
    }
  }
}

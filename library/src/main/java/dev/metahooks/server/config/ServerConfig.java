package dev.metahooks.server.config;

import static dev.metahooks.server.config.EnvironmentSettings.require;

import dev.metahooks.api.AnswerSize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The server's settings, each with a default that works without configuration: {@link #defaults()}, built in code
 * with {@link #builder()} (or {@link #toBuilder()} of another), or read from the {@code METAHOOKS_} environment
 * with {@link #fromEnvironment}. A value the server cannot use is a {@link ConfigurationException} when built.
 * The settings, with their variables:
 *
 * <ul>
 * <li>{@code port()}: {@code METAHOOKS_PORT}, default 8080</li>
 * <li>{@code maxBodyBytes()}: {@code METAHOOKS_MAX_BODY_BYTES}, default the body budget, at most 64 MiB (41 MiB under the
 *     Deployment's 384 MiB heap). Metacontroller sends whole objects with no limit of its own (a CatSet of 10,000
 *     pods is about 39 MB), so the default is as large as the heap allows one body to be.</li>
 * <li>{@code maxConcurrentHooks()}: {@code METAHOOKS_MAX_CONCURRENT_HOOKS}, default four per core (at least 8): hook calls
 *     computing or waiting for a compute slot; a slot is taken once the whole body is in and given back once the
 *     hook has computed. A call beyond it waits up to a fifth of the deadline for a slot, then gets 429 with
 *     Retry-After, which Metacontroller honours without counting an error</li>
 * <li>{@code hookDeadline()}: {@code METAHOOKS_HOOK_DEADLINE_MS}, default 5000: a call not answered by then gets 503,
 *     well before Metacontroller's own 10 s timeout, so it retries instead of waiting on a stuck call (from the
 *     environment it must be below that timeout)</li>
 * <li>{@code idleTimeout()}: {@code METAHOOKS_IDLE_TIMEOUT_MS}, default 30000: a connection silent that long is closed</li>
 * <li>{@code shutdownDelay()}: {@code METAHOOKS_SHUTDOWN_DELAY_MS}, default 3000: after SIGTERM, readiness fails and
 *     calls are still served this long, while Kubernetes takes the pod out of the Service</li>
 * <li>{@code shutdownTimeout()}: {@code METAHOOKS_SHUTDOWN_TIMEOUT_MS}, default 10000: then the port takes no new
 *     connection, calls on open ones are still served, and calls in flight get this long to finish</li>
 * <li>{@code tokenFile()}: {@code METAHOOKS_TOKEN_FILE}: when set, hook calls need {@code Authorization: Bearer <token>}</li>
 * <li>{@code tls()}: {@code METAHOOKS_TLS_CERT_FILE}, {@code METAHOOKS_TLS_KEY_FILE} (PEM): when set, the port speaks
 *     HTTPS; with {@code METAHOOKS_TLS_CLIENT_CA_FILE}, clients must present a certificate signed by that CA</li>
 * <li>{@code fileCheckInterval()}: {@code METAHOOKS_FILE_CHECK_INTERVAL_MS}, default 10000: how often the token and
 *     certificate files are checked for changes (rotated Secrets are picked up without a restart)</li>
 * <li>{@code logBodies()}: {@code METAHOOKS_LOG_BODIES=true}: log request and response bodies (Secrets redacted); the
 *     log levels, {@code METAHOOKS_LOG_LEVEL} and {@code METAHOOKS_LIBRARY_LOG_LEVEL}, are checked here and
 *     applied by {@code JsonLogging}</li>
 * <li>{@code managementPort()}: {@code METAHOOKS_MANAGEMENT_PORT}: when set, probes and metrics are also served there
 *     over plain HTTP, and hooks are not; kubelet probes cannot present a client certificate</li>
 * <li>{@code responseCacheBytes()}: {@code METAHOOKS_RESPONSE_CACHE_BYTES}, default 32 MiB, 0 turns it off: recent
 *     answers kept by request hash, so that a resync of an unchanged world is answered without running the hook
 *     (one answer may take at most half of it: thousands of ordinary answers, or the 10 MB answer for 10,000 Pods)</li>
 * <li>{@code bodyBudgetBytes()}: {@code METAHOOKS_BODY_BUDGET_BYTES}, default a ninth of the heap: request bodies held in
 *     memory at once, taken from {@code Content-Length} (or as a chunked body grows) before the body is read; a
 *     call beyond it waits as for a hook slot, then gets 429 with Retry-After (docs/reliability.md has the sizing)</li>
 * <li>{@code maxResponseBytes()}: {@code METAHOOKS_MAX_RESPONSE_BYTES}, default a heap share per compute slot (10 MiB
 *     under 384 MiB on two cores): a larger answer is refused with 422 naming the field that makes it large, while
 *     it is estimated or written, never after it was built whole</li>
 * <li>{@code writeTimeout()}: {@code METAHOOKS_WRITE_TIMEOUT_MS}, default 5000: an answer the client does not take within
 *     this long, however slowly it reads, ends its connection (a reset), logged and counted, so that it frees its
 *     thread</li>
 * <li>{@code recording()}: {@code METAHOOKS_RECORD_DIR} and its bounds: off by default; see {@link Recording}</li>
 * <li>{@code warmUp()}: {@code METAHOOKS_WARM_UP_MS}, default 5000 from the environment, 0 to 60000: how long the
 *     server serves its training calls ({@code TrainingCalls}) once it listens and before {@code /readyz} answers
 *     ready, so that the JVM has compiled the request path when traffic comes (without one, the first seconds of
 *     traffic after each rollout are served by the interpreter). Settings built in code have none (0): a server
 *     made in a test or an application is ready as soon as it listens, unless it asks for one</li>
 * </ul>
 */
public final class ServerConfig {
  /** Metacontroller gives up on a hook call after this long (its default {@code webhook.timeout}). */
  public static final Duration METACONTROLLER_TIMEOUT = Duration.ofSeconds(10);

  public static final int DEFAULT_PORT = 8080;

  /** The largest default body limit; under a smaller heap the body budget is the limit. */
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  public static final long DEFAULT_RESPONSE_CACHE_BYTES = 32L * 1024 * 1024;
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  /** The warm-up of a server configured from the environment. */
  public static final Duration DEFAULT_WARM_UP = Duration.ofSeconds(5);

  /** Readiness waits this long at most: the kubelet's probes see 503 meanwhile, and a rollout waits. */
  static final Duration LONGEST_WARM_UP = Duration.ofSeconds(60);

  /** HTTPS settings; {@code clientCaFile} null means client certificates are not asked for. */
  public record Tls(Path certFile, Path keyFile, Path clientCaFile) {}

  /**
   * Recording of sampled calls ({@code Recorder}): {@code METAHOOKS_RECORD_DIR} (null: off, the default), one call in
   * {@code METAHOOKS_RECORD_SAMPLE} (default 1, every call), and at most {@code METAHOOKS_RECORD_MAX_FILES} (default
   * 1000) files of at most {@code METAHOOKS_RECORD_MAX_BYTES} (default 256 MiB) in all; the oldest go first. With
   * {@code METAHOOKS_RECORD_KEY_FILE} (null: none, the default) Secret values are sealed under that key instead of
   * masked ({@code RecordingKey}), so that {@code metahooks diff} with the same key replays each call exactly.
   */
  public record Recording(Path dir, int sample, int maxFiles, long maxBytes, Path keyFile) {
    public static final Recording OFF = new Recording(null, 1, 1000, 256L * 1024 * 1024);

    /** The fewest bytes a key file holds (for example {@code openssl rand -base64 32}). */
    public static final int KEY_BYTES = 32;

    /** Without a key: Secret values masked. */
    public Recording(Path dir, int sample, int maxFiles, long maxBytes) {
      this(dir, sample, maxFiles, maxBytes, null);
    }

    public Recording {
      require(sample > 0, "METAHOOKS_RECORD_SAMPLE must be positive, got " + sample);
      require(maxFiles > 0, "METAHOOKS_RECORD_MAX_FILES must be positive, got " + maxFiles);
      require(maxBytes > 0, "METAHOOKS_RECORD_MAX_BYTES must be positive, got " + maxBytes);
    }

    public boolean enabled() {
      return dir != null;
    }

    public Recording in(Path directory) {
      return new Recording(directory, sample, maxFiles, maxBytes, keyFile);
    }

    /** The same, with Secret values sealed under the key in {@code file}. */
    public Recording sealedWith(Path file) {
      return new Recording(dir, sample, maxFiles, maxBytes, file);
    }

    /**
     * The bytes of a key file, surrounding whitespace stripped; refused, naming {@code setting}, when the file
     * cannot be read or holds fewer than {@value #KEY_BYTES} bytes.
     */
    public static byte[] readKey(Path file, String setting) {
      byte[] material;
      try {
        material =
            new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)
                .strip()
                .getBytes(StandardCharsets.ISO_8859_1);
      } catch (IOException e) {
        throw new ConfigurationException(
            setting + ": " + file + " cannot be read: " + e.getMessage());
      }
      if (material.length < KEY_BYTES) {
        throw new ConfigurationException(
            setting
                + ": "
                + file
                + " holds "
                + material.length
                + " bytes; a key needs at"
                + " least "
                + KEY_BYTES
                + " (openssl rand -base64 32)");
      }
      return material;
    }
  }

  private final int port;
  private final long maxBodyBytes;
  private final int maxConcurrentHooks;
  private final Duration hookDeadline;
  private final Duration idleTimeout;
  private final Duration shutdownDelay;
  private final Duration shutdownTimeout;
  private final Path tokenFile;
  private final Tls tls;
  private final Duration fileCheckInterval;
  private final boolean logBodies;
  private final int managementPort;
  private final long responseCacheBytes;
  private final long bodyBudgetBytes;
  private final long maxResponseBytes;
  private final Duration writeTimeout;
  private final Recording recording;
  private final Duration warmUp;

  private ServerConfig(Builder b) {
    this.port = b.port;
    this.maxBodyBytes = b.maxBodyBytes;
    this.maxConcurrentHooks = b.maxConcurrentHooks;
    this.hookDeadline = b.hookDeadline;
    this.idleTimeout = b.idleTimeout;
    this.shutdownDelay = b.shutdownDelay;
    this.shutdownTimeout = b.shutdownTimeout;
    this.tokenFile = b.tokenFile;
    this.tls = b.tls;
    this.fileCheckInterval = b.fileCheckInterval;
    this.logBodies = b.logBodies;
    this.managementPort = b.managementPort;
    this.responseCacheBytes = b.responseCacheBytes;
    this.bodyBudgetBytes = b.bodyBudgetBytes;
    this.maxResponseBytes = b.maxResponseBytes;
    this.writeTimeout = b.writeTimeout;
    this.recording = b.recording;
    this.warmUp = b.warmUp;
    require(port >= 0 && port <= 65535, "METAHOOKS_PORT must be 0..65535, got " + port);
    require(
        maxBodyBytes > 0 && maxBodyBytes <= MAX_ARRAY,
        "METAHOOKS_MAX_BODY_BYTES must be 1.."
            + MAX_ARRAY
            + " (a body is read into one array), got "
            + maxBodyBytes);
    require(
        maxConcurrentHooks > 0,
        "METAHOOKS_MAX_CONCURRENT_HOOKS must be positive, got " + maxConcurrentHooks);
    require(
        !hookDeadline.isNegative() && !hookDeadline.isZero(),
        "METAHOOKS_HOOK_DEADLINE_MS must be positive");
    require(
        !idleTimeout.isNegative() && !idleTimeout.isZero(),
        "METAHOOKS_IDLE_TIMEOUT_MS must be positive");
    require(!shutdownDelay.isNegative(), "METAHOOKS_SHUTDOWN_DELAY_MS must not be negative");
    require(!shutdownTimeout.isNegative(), "METAHOOKS_SHUTDOWN_TIMEOUT_MS must not be negative");
    require(
        !fileCheckInterval.isNegative() && !fileCheckInterval.isZero(),
        "METAHOOKS_FILE_CHECK_INTERVAL_MS must be positive");
    require(
        managementPort >= 0 && managementPort <= 65535,
        "METAHOOKS_MANAGEMENT_PORT must be 0..65535");
    require(
        managementPort == 0 || managementPort != port,
        "METAHOOKS_MANAGEMENT_PORT must differ from METAHOOKS_PORT");
    require(responseCacheBytes >= 0, "METAHOOKS_RESPONSE_CACHE_BYTES must not be negative");
    require(
        bodyBudgetBytes >= maxBodyBytes,
        "METAHOOKS_BODY_BUDGET_BYTES ("
            + bodyBudgetBytes
            + ") must be at least METAHOOKS_MAX_BODY_BYTES ("
            + maxBodyBytes
            + "), or the largest body is never admitted");
    require(
        maxResponseBytes > 0,
        "METAHOOKS_MAX_RESPONSE_BYTES must be positive, got " + maxResponseBytes);
    require(
        !writeTimeout.isNegative() && !writeTimeout.isZero(),
        "METAHOOKS_WRITE_TIMEOUT_MS must be positive");
    require(
        !warmUp.isNegative() && warmUp.compareTo(LONGEST_WARM_UP) <= 0,
        "METAHOOKS_WARM_UP_MS must be 0.."
            + LONGEST_WARM_UP.toMillis()
            + ", got "
            + warmUp.toMillis());
  }

  /** The defaults, to change in code: {@code ServerConfig.builder().port(0).build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** These settings, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.port = port;
    b.maxBodyBytes = maxBodyBytes;
    b.maxConcurrentHooks = maxConcurrentHooks;
    b.hookDeadline = hookDeadline;
    b.idleTimeout = idleTimeout;
    b.shutdownDelay = shutdownDelay;
    b.shutdownTimeout = shutdownTimeout;
    b.tokenFile = tokenFile;
    b.tls = tls;
    b.fileCheckInterval = fileCheckInterval;
    b.logBodies = logBodies;
    b.managementPort = managementPort;
    b.responseCacheBytes = responseCacheBytes;
    b.bodyBudgetBytes = bodyBudgetBytes;
    b.maxResponseBytes = maxResponseBytes;
    b.writeTimeout = writeTimeout;
    b.recording = recording;
    b.warmUp = warmUp;
    return b;
  }

  /**
   * Settings built in code; each setter names the setting of the same name (above), and {@link #build()} checks
   * them together.
   */
  public static final class Builder {
    private int port = DEFAULT_PORT;
    private long maxBodyBytes = Math.min(DEFAULT_MAX_BODY_BYTES, defaultBodyBudget());
    private int maxConcurrentHooks = defaultConcurrency();
    private Duration hookDeadline = Duration.ofSeconds(5);
    private Duration idleTimeout = Duration.ofSeconds(30);
    private Duration shutdownDelay = Duration.ofSeconds(3);
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private Path tokenFile = null;
    private Tls tls = null;
    private Duration fileCheckInterval = Duration.ofSeconds(10);
    private boolean logBodies = false;
    private int managementPort = 0;
    private long responseCacheBytes = DEFAULT_RESPONSE_CACHE_BYTES;
    private long bodyBudgetBytes = defaultBodyBudget();
    private long maxResponseBytes = AnswerSize.defaultLimit();
    private Duration writeTimeout = Duration.ofSeconds(5);
    private Recording recording = Recording.OFF;
    private Duration warmUp = Duration.ZERO;

    private Builder() {}

    public Builder port(int value) {
      this.port = value;
      return this;
    }

    public Builder maxBodyBytes(long value) {
      this.maxBodyBytes = value;
      return this;
    }

    public Builder maxConcurrentHooks(int value) {
      this.maxConcurrentHooks = value;
      return this;
    }

    public Builder hookDeadline(Duration value) {
      this.hookDeadline = value;
      return this;
    }

    public Builder idleTimeout(Duration value) {
      this.idleTimeout = value;
      return this;
    }

    public Builder shutdownDelay(Duration value) {
      this.shutdownDelay = value;
      return this;
    }

    public Builder shutdownTimeout(Duration value) {
      this.shutdownTimeout = value;
      return this;
    }

    public Builder tokenFile(Path value) {
      this.tokenFile = value;
      return this;
    }

    public Builder tls(Tls value) {
      this.tls = value;
      return this;
    }

    public Builder fileCheckInterval(Duration value) {
      this.fileCheckInterval = value;
      return this;
    }

    public Builder logBodies(boolean value) {
      this.logBodies = value;
      return this;
    }

    public Builder managementPort(int value) {
      this.managementPort = value;
      return this;
    }

    public Builder responseCacheBytes(long value) {
      this.responseCacheBytes = value;
      return this;
    }

    public Builder bodyBudgetBytes(long value) {
      this.bodyBudgetBytes = value;
      return this;
    }

    public Builder maxResponseBytes(long value) {
      this.maxResponseBytes = value;
      return this;
    }

    public Builder writeTimeout(Duration value) {
      this.writeTimeout = value;
      return this;
    }

    public Builder recording(Recording value) {
      this.recording = value;
      return this;
    }

    public Builder warmUp(Duration value) {
      this.warmUp = value;
      return this;
    }

    /** The settings; a value the server cannot use is a {@link ConfigurationException} naming its variable. */
    public ServerConfig build() {
      return new ServerConfig(this);
    }
  }

  public int port() {
    return port;
  }

  public long maxBodyBytes() {
    return maxBodyBytes;
  }

  public int maxConcurrentHooks() {
    return maxConcurrentHooks;
  }

  public Duration hookDeadline() {
    return hookDeadline;
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  public Duration shutdownDelay() {
    return shutdownDelay;
  }

  public Duration shutdownTimeout() {
    return shutdownTimeout;
  }

  public Path tokenFile() {
    return tokenFile;
  }

  public Tls tls() {
    return tls;
  }

  public Duration fileCheckInterval() {
    return fileCheckInterval;
  }

  public boolean logBodies() {
    return logBodies;
  }

  public int managementPort() {
    return managementPort;
  }

  public long responseCacheBytes() {
    return responseCacheBytes;
  }

  public long bodyBudgetBytes() {
    return bodyBudgetBytes;
  }

  public long maxResponseBytes() {
    return maxResponseBytes;
  }

  public Duration writeTimeout() {
    return writeTimeout;
  }

  public Recording recording() {
    return recording;
  }

  public Duration warmUp() {
    return warmUp;
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
    return builder().build();
  }

  /**
   * Reads and checks the environment ({@link EnvironmentSettings}). Every {@code METAHOOKS_} variable is read
   * there, which makes it the one list of them: a value the variable does not take, or a file that cannot be
   * read, is a {@link ConfigurationException} that names the variable; any other {@code METAHOOKS_} variable is
   * reported as unknown (a warning: most likely a misspelt name whose setting is not applied).
   */
  public static ServerConfig fromEnvironment(Map<String, String> variables) {
    return EnvironmentSettings.read(variables);
  }

  /** Every variable the server reads (docs/configuration.md lists them). */
  public static Set<String> variables() {
    return EnvironmentSettings.variables();
  }

  static int defaultConcurrency() {
    return Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
  }

  public ServerConfig withRecording(Recording value) {
    return toBuilder().recording(value).build();
  }

  public ServerConfig withPort(int value) {
    return toBuilder().port(value).build();
  }

  /** A body limit; the body budget grows with it when needed, so that the largest body can be admitted. */
  public ServerConfig withMaxBodyBytes(long value) {
    return toBuilder()
        .maxBodyBytes(value)
        .bodyBudgetBytes(Math.max(bodyBudgetBytes, value))
        .build();
  }

  /** The memory bounds: bodies in memory at once (the body limit shrinks to it when needed) and one answer. */
  public ServerConfig withMemory(long bodyBudget, long maxResponse) {
    return toBuilder()
        .maxBodyBytes(Math.min(maxBodyBytes, bodyBudget))
        .bodyBudgetBytes(bodyBudget)
        .maxResponseBytes(maxResponse)
        .build();
  }

  public ServerConfig withWriteTimeout(Duration value) {
    return toBuilder().writeTimeout(value).build();
  }

  public ServerConfig withLimits(int concurrentHooks, Duration deadline, Duration idle) {
    return toBuilder()
        .maxConcurrentHooks(concurrentHooks)
        .hookDeadline(deadline)
        .idleTimeout(idle)
        .build();
  }

  public ServerConfig withShutdown(Duration delay, Duration timeout) {
    return toBuilder().shutdownDelay(delay).shutdownTimeout(timeout).build();
  }

  public ServerConfig withSecurity(Path token, Tls https, Duration checkInterval) {
    return toBuilder().tokenFile(token).tls(https).fileCheckInterval(checkInterval).build();
  }

  public ServerConfig withLogBodies(boolean value) {
    return toBuilder().logBodies(value).build();
  }

  public ServerConfig withManagementPort(int value) {
    return toBuilder().managementPort(value).build();
  }

  public ServerConfig withResponseCacheBytes(long value) {
    return toBuilder().responseCacheBytes(value).build();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ServerConfig that && toString().equals(that.toString());
  }

  @Override
  public int hashCode() {
    return Objects.hash(toString());
  }

  @Override
  public String toString() {
    return "ServerConfig[port="
        + port
        + ", maxBodyBytes="
        + maxBodyBytes
        + ", maxConcurrentHooks="
        + maxConcurrentHooks
        + ", hookDeadline="
        + hookDeadline
        + ", idleTimeout="
        + idleTimeout
        + ", shutdownDelay="
        + shutdownDelay
        + ", shutdownTimeout="
        + shutdownTimeout
        + ", tokenFile="
        + tokenFile
        + ", tls="
        + tls
        + ", fileCheckInterval="
        + fileCheckInterval
        + ", logBodies="
        + logBodies
        + ", managementPort="
        + managementPort
        + ", responseCacheBytes="
        + responseCacheBytes
        + ", bodyBudgetBytes="
        + bodyBudgetBytes
        + ", maxResponseBytes="
        + maxResponseBytes
        + ", writeTimeout="
        + writeTimeout
        + ", recording="
        + recording
        + ", warmUp="
        + warmUp
        + "]";
  }
}

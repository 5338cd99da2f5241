package dev.metahooks.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP surface: {@code POST /<controller>/<hook>} for every served hook, {@code GET /healthz},
 * {@code /readyz} and {@code /metrics}. Every answer, errors included (Jetty's own too), is JSON (metrics excepted).
 *
 * <p>A hook call reads top-down: admission ({@link Admission}: the body's bytes from the body budget and a hook
 * slot, both before a byte is read; 429 with Retry-After beyond them, which Metacontroller honours without counting
 * an error) → the body, read whole → a compute slot → dispatch, which bounds the answer → the one place that writes
 * the reply, whatever the outcome → access log and metrics. A call not answered within {@code hookDeadline} gets
 * 503 (Metacontroller retries, nothing is applied); blocking reads and writes give up after {@code writeTimeout};
 * idle connections are closed after {@code idleTimeout}; optional bearer token and HTTPS with client
 * certificates; graceful shutdown, telling kept-alive clients to reconnect elsewhere.
 */
public final class HookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
  private static final String JSON = "application/json";
  private static final String MANAGEMENT = "management";
  /** What a body of unknown length (chunked) takes of the budget at first; it takes more as it grows. */
  private static final long CHUNKED_START = 64 * 1024;

  static {
    // Jetty sizes its queues' padding by asking the platform MBean server whether references are compressed;
    // starting that server costs a tenth of the start-up. They are (heaps below 32 GB): 16 per 64-byte line.
    if (System.getProperty("org.eclipse.jetty.util.referencesPerCacheLine") == null) {
      System.setProperty("org.eclipse.jetty.util.referencesPerCacheLine", "16");
    }
  }

  private final ServerConfig config;
  private final HookDispatcher dispatcher;
  private final HookMetrics metrics;
  private final Admission admission;
  private final Recorder recorder;
  /**
   * Of the admitted calls, how many parse, run and write at once ({@link ServerConfig#computeSlots}); each running
   * call holds its request as a tree: eight 4 MB requests at once made the collector copy 100 MB of trees on
   * every young collection, and throughput fell from 16 to 7 calls a second (docs/performance.md).
   */
  private final Semaphore computeSlots;
  private final ExecutorService workers;
  private final BearerToken token;
  private final List<FileWatcher> watchers = new ArrayList<>();
  private final Javalin app;
  /** Hook calls inside the handler, from the first byte read to the last byte written. */
  private final AtomicInteger active = new AtomicInteger();
  private volatile boolean ready;
  /** SIGTERM came: every answer says {@code Connection: close}. */
  private volatile boolean closing;
  private volatile boolean draining;

  public HookServer(ServerConfig config, List<Controller> controllers) {
    this.config = config;
    this.dispatcher = new HookDispatcher(controllers, config.responseCacheBytes(), config.maxResponseBytes());
    this.recorder = new Recorder(config.recording());
    this.admission = new Admission(config.bodyBudgetBytes(), config.maxConcurrentHooks(), admissionWait());
    this.metrics = new HookMetrics(controllers);
    metrics.watchCache(dispatcher);
    metrics.watchActive(active);
    metrics.watchBodyBudget(admission::bytesInUse);
    Thread warmUp = new Thread(HookDispatcher::warmUp, "warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
    this.computeSlots = new Semaphore(config.computeSlots(), true);
    AtomicInteger threads = new AtomicInteger();
    this.workers = Executors.newFixedThreadPool(config.maxConcurrentHooks(), r -> {
      Thread thread = new Thread(r, "hook-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.token = config.tokenFile() == null ? null : new BearerToken(config.tokenFile());
    if (token != null) {
      watchers.add(new FileWatcher(config.fileCheckInterval(), "bearer token", List.of(token.file()), token::reload));
    }
    SslContextFactory.Server tls = config.tls() == null ? null : tlsContext(config.tls());
    this.app = Javalin.create(javalin -> {
      javalin.startup.showJavalinBanner = false;
      javalin.startup.showOldJavalinVersionWarning = false;
      javalin.http.maxRequestSize = config.maxBodyBytes();
      javalin.jetty.threadPool = httpThreads(config);
      javalin.jetty.modifyHttpConfiguration(http -> {
        http.setSendServerVersion(false);
        // Blocking reads and writes of one request give up after this: a client that never reads its answer
        // frees its thread and slot (the connection's own idle timeout is for the time between requests).
        http.setIdleTimeout(config.writeTimeout().toMillis());
      });
      javalin.jetty.modifyServer(server -> {
        // Jetty would stop itself on SIGTERM, cutting calls in flight; shutdownGracefully decides instead.
        server.setStopAtShutdown(false);
        server.setErrorHandler(new JsonErrorHandler());
      });
      javalin.jetty.modifyServletContextHandler(context -> context.setErrorHandler(new JsonErrorHandler()));
      javalin.jetty.addConnector((server, http) -> {
        ServerConnector connector = tls == null
            ? new ServerConnector(server, new HttpConnectionFactory(http))
            : new ServerConnector(server, new SslConnectionFactory(tls, "http/1.1"), new HttpConnectionFactory(http));
        connector.setPort(config.port());
        connector.setIdleTimeout(config.idleTimeout().toMillis());
        return connector;
      });
      if (config.managementPort() > 0) {
        javalin.jetty.addConnector((server, http) -> {
          // Threads of its own: probes and scrapes are answered however busy the hook port's threads are.
          QueuedThreadPool probeThreads = new QueuedThreadPool(8, 2, 60_000);
          probeThreads.setName("management");
          ServerConnector management = new ServerConnector(server, probeThreads, null, null, 1, 1,
              new HttpConnectionFactory(http));
          management.setPort(config.managementPort());
          management.setName(MANAGEMENT);
          return management;
        });
      }
      javalin.routes.get("/healthz", ctx -> json(ctx, 200, Map.of("status", "ok")));
      javalin.routes.get("/readyz", this::readiness);
      javalin.routes.get("/controllers", ctx -> json(ctx, 200, ControllerListing.of(dispatcher.controllers())));
      javalin.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
          .result(metrics.scrape()));
      javalin.routes.post("/{controller}/{hook}", this::hook);
      javalin.routes.before(ctx -> {
        if (closing) { // on SIGTERM every answer tells the client to reconnect, to a replica that stays
          ctx.header("Connection", "close");
        }
      });
      for (HandlerType method : List.of(HandlerType.GET, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE,
          HandlerType.HEAD, HandlerType.OPTIONS, HandlerType.TRACE)) {
        javalin.routes.addHttpHandler(method, "/{controller}/{hook}", this::wrongMethod);
      }
      javalin.routes.error(404, ctx -> {
        if (!JSON.equals(ctx.res().getContentType())) { // our own 404 answers are JSON already
          json(ctx, 404, error("not_found", "no route for " + ctx.method() + " " + ctx.path()));
        }
      });
      javalin.routes.exception(Exception.class, (e, ctx) -> {
        LOG.atError().addKeyValue("path", ctx.path()).addKeyValue("error", e.toString()).log("unhandled error");
        json(ctx, 500, error("internal_error", "unexpected server error"));
      });
    });
  }

  /**
   * Jetty's threads only read requests, wait for a hook slot and write answers; the CPU-bound work runs on the
   * {@code maxConcurrentHooks} hook threads. So: a thread per call that may wait for a slot or run, and a few
   * for the connectors' acceptors and selectors and for probes, instead of Jetty's default of up to 250 threads
   * (each with its stack) contending for two cores. Beyond that, connections wait in Jetty's queue.
   */
  static QueuedThreadPool httpThreads(ServerConfig config) {
    int max = 2 * config.maxConcurrentHooks() + 16;
    QueuedThreadPool pool = new QueuedThreadPool(max, Math.min(4, max), 60_000);
    pool.setName("http");
    return pool;
  }

  private SslContextFactory.Server tlsContext(ServerConfig.Tls tls) {
    TlsFiles files = new TlsFiles(tls);
    watchers.add(new FileWatcher(config.fileCheckInterval(), "TLS certificate", files.files(), files::reload));
    return files.context();
  }

  /** Starts serving; a port that cannot be bound is a {@link ConfigurationException}. */
  public HookServer start() {
    requireFree(config.port(), "METAHOOKS_PORT");
    requireFree(config.managementPort(), "METAHOOKS_MANAGEMENT_PORT");
    app.start();
    ready = true;
    LOG.atInfo()
        .addKeyValue("version", BuildInfo.version())
        .addKeyValue("port", port())
        .addKeyValue("tls", config.tls() != null)
        .addKeyValue("clientCertificates", config.tls() != null && config.tls().clientCaFile() != null)
        .addKeyValue("bearerToken", token != null)
        .addKeyValue("controllers", String.join(",", dispatcher.controllers().stream().map(Controller::name).toList()))
        .log("metahooks listening");
    return this;
  }

  /** Tried before Jetty binds, which would log its failure as an error of its own before the one clear line. */
  private void requireFree(int port, String variable) {
    if (port == 0) {
      return;
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(port));
    } catch (IOException e) {
      close();
      throw new ConfigurationException("cannot listen on port " + port + " (" + variable + "): " + e.getMessage(), e);
    }
  }

  /** Calls written to METAHOOKS_RECORD_DIR since start. */
  public long recordedCalls() {
    return recorder.written();
  }

  /** The bound port (useful when started on port 0). */
  public int port() {
    return app.port();
  }

  /**
   * Stops the way Kubernetes expects on SIGTERM: readiness fails at once while calls are still served for
   * {@code shutdownDelay} (the pod is leaving the Service's endpoints meanwhile); then new calls get 503 and
   * calls in flight get up to {@code shutdownTimeout} to finish; then the server stops.
   */
  public void shutdownGracefully() {
    ready = false;
    closing = true;
    LOG.atInfo().addKeyValue("delayMs", config.shutdownDelay().toMillis()).log("shutting down: readiness off");
    sleep(config.shutdownDelay());
    draining = true;
    long deadline = System.nanoTime() + config.shutdownTimeout().toNanos();
    while (active.get() > 0 && System.nanoTime() < deadline) {
      sleep(Duration.ofMillis(10));
    }
    boolean drained = active.get() == 0;
    LOG.atInfo().addKeyValue("drained", drained).log("shutting down: calls in flight " + (drained ? "finished" : "cut"));
    close();
  }

  @Override
  public void close() {
    ready = false;
    draining = true;
    watchers.forEach(FileWatcher::close);
    app.stop();
    workers.shutdownNow();
    metrics.close();
    recorder.close();
  }

  private void readiness(Context ctx) {
    if (ready) {
      json(ctx, 200, Map.of("status", "ready"));
    } else {
      json(ctx, 503, error("not_ready", "the server is starting or shutting down"));
    }
  }

  private void hook(Context ctx) {
    active.incrementAndGet();
    try {
      serve(ctx);
    } finally {
      active.decrementAndGet();
    }
  }

  /**
   * One hook call, top-down: admission (bytes, slot, deadline) → body → dispatch → the reply, whatever the
   * outcome, written here → access log and metrics.
   */
  private void serve(Context ctx) {
    long started = System.nanoTime();
    String controller = ctx.pathParam("controller");
    String hook = ctx.pathParam("hook");
    boolean known = dispatcher.serves(controller, hook) && !onManagementPort(ctx);
    Exchange exchange = route(ctx, controller, hook, known);
    HookDispatcher.Reply reply = exchange.reply();
    boolean notModified = reply.etag() != null && reply.etag().equals(ctx.header("If-None-Match"));
    boolean written;
    try {
      written = write(ctx, exchange, notModified);
    } finally {
      exchange.ticket().release(); // its bytes and slot, once the answer is out or abandoned
    }
    String controllerTag = known ? controller : HookMetrics.UNKNOWN;
    String hookTag = known ? hook : HookMetrics.UNKNOWN;
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    metrics.record(controllerTag, hookTag, reply.outcome(), elapsed);
    if (!written) {
      metrics.unwritten(controllerTag, hookTag);
    }
    accessLog(controller, hook, reply, notModified ? 304 : reply.status(), elapsed);
    if (exchange.request() != null && reply.summary().requestRead()) { // kept only with METAHOOKS_LOG_BODIES
      logBodies(controller, hook, exchange.request(), reply.body());
    }
    if (!exchange.bodyRead() && !exchange.bodyInUse()) {
      discardBody(ctx);
    }
  }

  /**
   * How long a call waits for room before it is refused, and how long the rest of a refused body may take: a fifth
   * of the deadline, so that a burst (Metacontroller relisting after a restart) is absorbed.
   */
  private Duration admissionWait() {
    return config.hookDeadline().dividedBy(5);
  }

  /**
   * Reads what is left of a body the answer did not need (a 429 for a 39 MB body, say) and throws it away, a
   * buffer at a time, so that the connection is closed once the client has sent it all: closing while it still
   * sends would reset the connection, and the client would see the reset instead of the answer it was sent. At most
   * a body within the limit, for at most the admission wait; beyond that the connection is closed regardless.
   */
  private void discardBody(Context ctx) {
    long declared = ctx.req().getContentLengthLong();
    if (declared > config.maxBodyBytes()) {
      return; // never sent whole anyway
    }
    long until = System.nanoTime() + admissionWait().toNanos();
    byte[] buffer = new byte[64 * 1024];
    long left = config.maxBodyBytes();
    try {
      InputStream in = ctx.req().getInputStream();
      for (int n; left > 0 && System.nanoTime() < until && (n = in.read(buffer)) >= 0; ) {
        left -= n;
      }
    } catch (IOException | RuntimeException e) {
      // the client is gone or stalls: the connection is closed either way
    }
  }

  /**
   * Writes and flushes the reply here, so that a call counted as active is answered before shutdown can stop the
   * server. False (logged) when the client did not take it: gone, or not reading within the write timeout.
   */
  private boolean write(Context ctx, Exchange exchange, boolean notModified) {
    HookDispatcher.Reply reply = exchange.reply();
    // A body left unread makes the connection unusable for the next request: say so. (After SIGTERM every
    // answer says so already: see the before-handler.)
    if (!exchange.bodyRead()) {
      ctx.header("Connection", "close");
    }
    if (reply.status() == 429) {
      ctx.header("Retry-After", "1"); // Metacontroller requeues after it without counting an error
    }
    if (reply.etag() != null) {
      ctx.header("ETag", reply.etag());
    }
    try {
      if (notModified) { // Metacontroller substitutes the body it holds for this ETag
        ctx.status(304);
        ctx.res().setContentType(null);
      } else {
        ctx.status(reply.status()).contentType(JSON);
        ctx.res().setContentLength(reply.body().length);
        ctx.res().getOutputStream().write(reply.body());
      }
      ctx.res().flushBuffer();
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.atWarn().addKeyValue("controller", ctx.pathParam("controller")).addKeyValue("hook", ctx.pathParam("hook"))
          .addKeyValue("status", reply.status()).addKeyValue("bytes", reply.body().length)
          .addKeyValue("error", e.toString()).log("answer not written: the client did not take it");
      return false;
    }
  }

  /**
   * A reply, what holds memory and a slot for it, and what the server needs to know of the request: whether its
   * body was read, whether a worker past the deadline may still be reading it (then it is left alone), and the
   * bytes (kept only to log them).
   */
  private record Exchange(HookDispatcher.Reply reply, boolean bodyRead, boolean bodyInUse, byte[] request,
      Admission.Ticket ticket) {
    static Exchange unread(HookDispatcher.Answer error) {
      return unread(error, Admission.Ticket.NONE);
    }

    static Exchange unread(HookDispatcher.Answer error, Admission.Ticket ticket) {
      return new Exchange(reply(error), false, false, null, ticket);
    }

    /** The call was given up on while its worker may still be reading the body. */
    static Exchange abandoned(HookDispatcher.Answer error, Admission.Ticket ticket) {
      return new Exchange(reply(error), false, true, null, ticket);
    }

    static Exchange read(HookDispatcher.Reply reply, byte[] request) {
      return new Exchange(reply, true, false, request, Admission.Ticket.NONE);
    }

    private static HookDispatcher.Reply reply(HookDispatcher.Answer error) {
      byte[] body = HookDispatcher.write(error.body(), "", "");
      return new HookDispatcher.Reply(error.status(), body, null, error.outcome(), CallSummary.UNREAD, false);
    }

    Exchange holding(Admission.Ticket held) {
      return new Exchange(reply, bodyRead, bodyInUse, request, held);
    }
  }

  /** Authentication and routing in front of the admitted call. */
  private Exchange route(Context ctx, String controller, String hook, boolean known) {
    if (onManagementPort(ctx)) {
      return Exchange.unread(HookDispatcher.error(404, "not_found", "hooks are not served on the management port", null));
    }
    if (token != null && !token.accepts(ctx.header("Authorization"))) {
      return Exchange.unread(HookDispatcher.error(401, "unauthorized", "missing or invalid credentials", null));
    }
    return known ? guarded(ctx, controller, hook)
        : Exchange.unread(dispatcher.dispatch(controller, hook, InputStream.nullInputStream()));
  }

  /**
   * Admission, then the work on a hook thread within the deadline. What can be refused from the headers alone is
   * refused at once, before any byte of the body is read or held.
   */
  private Exchange guarded(Context ctx, String controller, String hook) {
    if (draining) {
      LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook).log("draining: 503");
      return Exchange.unread(HookDispatcher.error(503, "shutting_down", "the server is shutting down; retry", null));
    }
    String contentType = ctx.contentType();
    if (contentType != null && !isJson(contentType)) {
      return Exchange.unread(HookDispatcher.error(415, "unsupported_media_type",
          "Content-Type must be application/json, got '" + contentType + "'", null));
    }
    long declared = ctx.req().getContentLengthLong(); // a long: an int says -1 above 2^31
    if (declared > config.maxBodyBytes()) {
      return Exchange.unread(HookDispatcher.error(413, "payload_too_large",
          new BodyTooLargeException(config.maxBodyBytes()).getMessage(), null));
    }
    long arrived = System.nanoTime();
    Admission.Ticket ticket;
    try {
      ticket = admission.admit(declared >= 0 ? declared : Math.min(CHUNKED_START, config.maxBodyBytes()));
    } catch (Admission.Refused e) {
      LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("waitedMs", (System.nanoTime() - arrived) / 1_000_000).log("not admitted in time: 429");
      return Exchange.unread(HookDispatcher.error(429, "too_many_requests", e.getMessage(), null));
    }
    LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook)
        .addKeyValue("waitedMs", (System.nanoTime() - arrived) / 1_000_000).addKeyValue("bodyBytes", declared)
        .log("admitted to a hook slot");
    Future<Exchange> call;
    ticket.hold(); // by the worker, from now until its work has ended
    try {
      call = workers.submit(() -> {
        try {
          return answer(ctx, controller, hook, ticket);
        } finally {
          ticket.release(); // even after a deadline answer: the slot bounds real work
        }
      });
    } catch (RuntimeException e) {
      ticket.release();
      return Exchange.unread(HookDispatcher.error(503, "shutting_down", "the server is shutting down; retry", null),
          ticket);
    }
    try {
      long left = config.hookDeadline().toNanos() - (System.nanoTime() - arrived);
      return call.get(Math.max(left, 0), TimeUnit.NANOSECONDS).holding(ticket);
    } catch (TimeoutException e) {
      call.cancel(true);
      return Exchange.abandoned(HookDispatcher.error(503, "deadline_exceeded", "no answer within "
          + config.hookDeadline().toMillis() + " ms; retry", null), ticket);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Exchange.abandoned(HookDispatcher.error(503, "shutting_down", "interrupted; retry", null), ticket);
    } catch (ExecutionException e) {
      exitOnOutOfMemory(e.getCause());
      LOG.atError().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("error", e.getCause().toString()).log("hook call failed");
      return Exchange.abandoned(HookDispatcher.error(500, "internal_error", "unexpected server error", null), ticket);
    }
  }

  /**
   * A process whose heap ran out may have lost any thread (Jetty's acceptor among them) and serve no more while it
   * looks alive: it exits instead, and the kubelet restarts it ({@code -XX:+ExitOnOutOfMemoryError} in the image
   * does the same for every thread).
   */
  public static void exitOnOutOfMemory(Throwable e) {
    if (e instanceof OutOfMemoryError) {
      LOG.atError().addKeyValue("error", e.toString()).log("out of memory: exiting");
      Runtime.getRuntime().halt(3);
    }
  }

  /** The body first, under the byte budget; then a compute slot, so that a trickled body holds none. */
  private Exchange answer(Context ctx, String controller, String hook, Admission.Ticket ticket) {
    byte[] body;
    try {
      body = readBody(ctx, ticket);
    } catch (BodyTooLargeException e) {
      return Exchange.unread(HookDispatcher.error(413, "payload_too_large", e.getMessage(), null));
    } catch (Admission.Refused e) {
      return Exchange.unread(HookDispatcher.error(429, "too_many_requests", e.getMessage(), null));
    } catch (IOException e) {
      if (e.getCause() instanceof BodyTooLargeException tooLarge) {
        return Exchange.unread(HookDispatcher.error(413, "payload_too_large", tooLarge.getMessage(), null));
      }
      return Exchange.unread(HookDispatcher.error(400, "bad_request",
          "could not read the request body: " + e.getMessage(), null));
    }
    try {
      computeSlots.acquire();
    } catch (InterruptedException e) { // the deadline passed while waiting: the caller has answered 503
      Thread.currentThread().interrupt();
      return Exchange.unread(HookDispatcher.error(503, "deadline_exceeded", "no answer in time; retry", null));
    }
    try {
      HookDispatcher.Reply reply = dispatcher.reply(controller, hook, body);
      recorder.offer(controller, hook, body, reply); // METAHOOKS_RECORD_DIR: the one place an answer is finished
      return Exchange.read(reply, config.logBodies() ? body : null);
    } finally {
      computeSlots.release();
    }
  }

  /**
   * The whole body in one array of its exact size when the length is known (Metacontroller always sends it):
   * the response cache needs its hash before deciding to parse, and Jackson parses an array faster than a stream.
   * A body of unknown length takes budget as it grows.
   */
  private byte[] readBody(Context ctx, Admission.Ticket ticket) throws IOException {
    long length = ctx.req().getContentLengthLong();
    InputStream in = ctx.req().getInputStream();
    if (length >= 0) {
      byte[] body = in.readNBytes((int) length);
      if (body.length < length) {
        throw new IOException("the body ended after " + body.length + " of " + length + " bytes");
      }
      return body;
    }
    try (InputStream limited = new LimitedInputStream(in, config.maxBodyBytes(), ticket::grow)) {
      return limited.readAllBytes();
    }
  }

  /** Request and response, Secret values redacted; only with METAHOOKS_LOG_BODIES, for debugging. */
  private static void logBodies(String controller, String hook, byte[] request, byte[] response) {
    try {
      LOG.atInfo().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("request", Redaction.redactSecrets(Json.MAPPER.readTree(request)).toString())
          .addKeyValue("response", Redaction.redactSecrets(Json.MAPPER.readTree(response)).toString())
          .log("hook bodies");
    } catch (IOException e) {
      LOG.atWarn().addKeyValue("error", e.toString()).log("hook bodies cannot be logged");
    }
  }

  /** One line per hook call, with what it was about and how it went; never a body. */
  private void accessLog(String controller, String hook, HookDispatcher.Reply reply, int status, Duration elapsed) {
    if (!LOG.isInfoEnabled()) {
      return;
    }
    CallSummary about = reply.summary();
    var line = LOG.atInfo()
        .addKeyValue("controller", controller)
        .addKeyValue("hook", hook)
        .addKeyValue("status", status)
        .addKeyValue("outcome", reply.outcome())
        .addKeyValue("durationMs", elapsed.toNanos() / 1_000_000.0);
    if (about.requestRead()) {
      line = line.addKeyValue("hookVersion", about.hookVersion())
          .addKeyValue("kind", about.kind())
          .addKeyValue("namespace", about.namespace())
          .addKeyValue("name", about.name())
          .addKeyValue("generation", about.generation());
    }
    if (about.children() >= 0) {
      line = line.addKeyValue("children", about.children());
    }
    if (reply.status() == 200) {
      line = line.addKeyValue("cached", reply.cached());
    }
    line.log("hook call");
  }

  private boolean onManagementPort(Context ctx) {
    return config.managementPort() > 0 && ctx.req().getLocalPort() == config.managementPort();
  }

  private static boolean isJson(String contentType) {
    String mediaType = contentType.split(";", 2)[0].trim().toLowerCase();
    return mediaType.equals(JSON) || mediaType.endsWith("+json");
  }

  private void wrongMethod(Context ctx) {
    String controller = ctx.pathParam("controller");
    String hook = ctx.pathParam("hook");
    if (!dispatcher.serves(controller, hook)) {
      HookDispatcher.Answer answer = dispatcher.dispatch(controller, hook, InputStream.nullInputStream());
      json(ctx, answer.status(), answer.body());
      return;
    }
    ctx.header("Allow", "POST");
    json(ctx, 405, error("method_not_allowed",
        ctx.method() + " is not allowed on /" + controller + "/" + hook + "; hooks take POST"));
  }

  private static Object error(String code, String message) {
    return HookDispatcher.error(0, code, message, null).body();
  }

  private static void json(Context ctx, int status, Object body) {
    try {
      ctx.status(status).contentType(JSON).result(Json.MAPPER.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

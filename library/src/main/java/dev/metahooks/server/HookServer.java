package dev.metahooks.server;

import dev.metahooks.api.Controller;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.Admission;
import dev.metahooks.server.internal.AnswerWriter;
import dev.metahooks.server.internal.BearerToken;
import dev.metahooks.server.internal.BuildInfo;
import dev.metahooks.server.internal.CachedAnswers;
import dev.metahooks.server.internal.CallLog;
import dev.metahooks.server.internal.ControllerListing;
import dev.metahooks.server.internal.ErrorCode;
import dev.metahooks.server.internal.FileWatcher;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.HookCalls;
import dev.metahooks.server.internal.HookError;
import dev.metahooks.server.internal.HookMetrics;
import dev.metahooks.server.internal.HookRunner;
import dev.metahooks.server.internal.HttpStack;
import dev.metahooks.server.internal.Recorder;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.server.internal.ReplyWriter;
import dev.metahooks.server.internal.RequestBodies;
import dev.metahooks.server.internal.Route;
import dev.metahooks.server.internal.RouteTable;
import dev.metahooks.server.internal.ServerLog;
import dev.metahooks.server.internal.TlsFiles;
import dev.metahooks.server.internal.TrainingCalls;
import dev.metahooks.server.internal.WriteDeadline;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP surface and its lifecycle: {@code POST /<controller>/<hook>} for every served hook, {@code GET /healthz},
 * {@code /readyz} and {@code /metrics}. Every answer, errors included (Jetty's own too), is JSON (metrics excepted).
 *
 * <p>A hook call reads top-down in {@link #serve}: its {@link Route} (the controller's name, the hook, the
 * {@code Controller}) is looked up once, in the {@link RouteTable}, and passed down → {@link HookCalls}: what the
 * request line and headers alone refuse (the management port, credentials, a route not served, the body limit),
 * admission, the deadline, the body → {@link FrontDoor#answer} → {@link CachedAnswers}: the response cache (a
 * Caffeine cache weighed by bytes), else {@link HookRunner} (parse, names, the controller) and {@link AnswerWriter},
 * which writes each subtree the children share once and copies its bytes wherever it recurs → the {@link Reply},
 * which {@link ReplyWriter} writes whatever the outcome → access log ({@link CallLog}) and metrics.
 *
 * <p>An answer has two types: the controller's {@code HookResponse}, then the written {@link Reply} (status, bytes,
 * ETag). A refusal or a fault is thrown as a {@link HookError} and mapped once per layer: the runner's funnel makes
 * any failure one (and logs a fault once), the writer refuses an answer past its limit, {@link CachedAnswers} and
 * {@link HookCalls} each turn what their steps threw into the reply. {@link InProcessHooks}, the offline command
 * and {@code metahooks diff} come in by the same {@link FrontDoor}, limits and writer included. Jetty's wiring is
 * {@link HttpStack}; certificate and token files are reloaded by {@link FileWatcher}s. Graceful shutdown tells
 * kept-alive clients to reconnect elsewhere.
 */
public final class HookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);

  private final ServerConfig config;
  private final FrontDoor frontDoor;
  private final HookMetrics metrics;
  private final RequestBodies bodies;
  private final HookCalls calls;
  private final Recorder recorder;
  private final BearerToken token;
  private final WriteDeadline writeDeadline;
  private final List<FileWatcher> watchers = new ArrayList<>();
  private final TrainingCalls training;
  private final Javalin app;

  /** Hook calls inside the handler, from the first byte read to the last byte written. */
  private final AtomicInteger active = new AtomicInteger();

  private volatile boolean ready;

  /** The training calls are being served (only they reach the in-memory connector). */
  private volatile boolean warmingUp;

  /** What the warm-up did; null without one, or when it failed. */
  private volatile TrainingCalls.Summary warmedUp;

  /** SIGTERM came: every answer says {@code Connection: close}. */
  private volatile boolean closing;

  /** Stopping: a call that still comes in gets 503. */
  private volatile boolean draining;

  /**
   * A server that, once it listens and before it is ready, serves its training calls for {@code config.warmUp()}
   * ({@code METAHOOKS_WARM_UP_MS}; zero, the default in code: none, ready as soon as it listens).
   */
  public HookServer(ServerConfig config, List<Controller> controllers) {
    this.config = config;
    this.training = warmsUp() ? TrainingCalls.of(controllers) : null;
    this.frontDoor = FrontDoor.of(config, controllers);
    Duration admissionWait = HookCalls.admissionWait(config);
    Admission admission =
        new Admission(
            config.bodyBudgetBytes(),
            config.maxResponseBytes(),
            config.maxConcurrentHooks(),
            admissionWait);
    this.metrics = new HookMetrics(controllers);
    metrics.watchCache(frontDoor.answers());
    metrics.watchActive(active);
    metrics.watchBodyBudget(admission::bytesInUse);
    Thread serializers = new Thread(CachedAnswers::prepare, "serializers");
    serializers.setDaemon(true);
    serializers.start();
    this.bodies = new RequestBodies(config.maxBodyBytes(), admissionWait);
    this.recorder = new Recorder(config.recording());
    metrics.watchRecorder(recorder);
    this.writeDeadline = new WriteDeadline(config.writeTimeout());
    this.token = config.tokenFile() == null ? null : new BearerToken(config.tokenFile());
    this.calls =
        new HookCalls(config, frontDoor, token, admission, bodies, recorder, () -> draining);
    if (token != null) {
      watchers.add(
          new FileWatcher(
              config.fileCheckInterval(), "bearer token", List.of(token.file()), token::reload));
    }
    SslContextFactory.Server tls = config.tls() == null ? null : tlsContext(config.tls());
    this.app = HttpStack.create(config, tls, warmsUp(), this::routes);
  }

  /** The route table. */
  private void routes(JavalinConfig javalin) {
    javalin.routes.get("/healthz", ctx -> ReplyWriter.json(ctx, 200, Map.of("status", "ok")));
    javalin.routes.get("/readyz", this::readiness);
    javalin.routes.get(
        "/controllers",
        ctx -> ReplyWriter.json(ctx, 200, ControllerListing.of(frontDoor.controllers())));
    javalin.routes.get(
        "/metrics",
        ctx ->
            ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape()));
    javalin.routes.post("/{controller}/{hook}", this::hook);
    javalin.routes.before(
        ctx -> {
          if (closing) { // on SIGTERM every answer tells the client to reconnect, to a replica that
            // stays
            ctx.header("Connection", "close");
          }
        });
    for (HandlerType method :
        List.of(
            HandlerType.GET,
            HandlerType.PUT,
            HandlerType.PATCH,
            HandlerType.DELETE,
            HandlerType.HEAD,
            HandlerType.OPTIONS,
            HandlerType.TRACE)) {
      javalin.routes.addHttpHandler(method, "/{controller}/{hook}", this::wrongMethod);
    }
    javalin.routes.error(
        404,
        ctx -> {
          if (!ReplyWriter.JSON.equals(
              ctx.res().getContentType())) { // our own 404 answers are JSON already
            ReplyWriter.error(
                ctx,
                new HookError(
                    ErrorCode.NOT_FOUND, "no route for " + ctx.method() + " " + ctx.path()));
          }
        });
    javalin.routes.exception(
        Exception.class,
        (e, ctx) -> {
          LOG.atError()
              .addKeyValue("path", ctx.path())
              .addKeyValue("error", e.toString())
              .log("unhandled error");
          ReplyWriter.error(
              ctx, new HookError(ErrorCode.INTERNAL_ERROR, "unexpected server error"));
        });
  }

  private SslContextFactory.Server tlsContext(ServerConfig.Tls tls) {
    TlsFiles files = new TlsFiles(tls);
    watchers.add(
        new FileWatcher(
            config.fileCheckInterval(), "TLS certificate", files.files(), files::reload));
    return files.context();
  }

  /** Starts serving; a port that cannot be bound is a {@link ConfigurationException}. */
  public HookServer start() {
    requireFree(config.port(), "METAHOOKS_PORT");
    requireFree(config.managementPort(), "METAHOOKS_MANAGEMENT_PORT");
    app.start();
    if (warmsUp()) {
      warmUp();
    }
    ready = !closing; // a SIGTERM during the warm-up leaves it not ready
    if (closing) {
      return this;
    }
    LOG.atInfo()
        .addKeyValue("version", BuildInfo.version())
        .addKeyValue("port", port())
        .addKeyValue("tls", config.tls() != null)
        .addKeyValue(
            "clientCertificates", config.tls() != null && config.tls().clientCaFile() != null)
        .addKeyValue("bearerToken", token != null)
        .addKeyValue(
            "controllers",
            String.join(",", frontDoor.controllers().stream().map(Controller::name).toList()))
        .log("metahooks listening");
    return this;
  }

  /**
   * Serves the training calls through the in-memory connector, then closes it. A failure is logged and the server
   * gets ready all the same: a warm-up only makes the first seconds faster.
   */
  private void warmUp() {
    LocalConnector connector = (LocalConnector) connector(HttpStack.WARM_UP);
    warmingUp = true;
    try {
      TrainingCalls.Summary done =
          warmedUp =
              training.run(
                  connector,
                  config.warmUp(),
                  config.maxConcurrentHooks(),
                  frontDoor.answers()::emptyCache,
                  () -> closing);
      LOG.atInfo()
          .addKeyValue("calls", done.calls())
          .addKeyValue("refused", done.refused())
          .addKeyValue("ms", done.took().toMillis())
          .log("warm-up done");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | LinkageError e) {
      LOG.atWarn().addKeyValue("error", e.toString()).log("warm-up failed; ready without it");
    } finally {
      warmingUp = false;
      frontDoor.answers().forgetWarmUp();
      try {
        connector.stop();
      } catch (Exception e) {
        LOG.atWarn().addKeyValue("error", e.toString()).log("warm-up connector did not stop");
      }
      app.jettyServer().server().removeConnector(connector);
    }
  }

  private boolean warmsUp() {
    return !config.warmUp().isZero();
  }

  private Connector connector(String name) {
    for (Connector connector : app.jettyServer().server().getConnectors()) {
      if (name.equals(connector.getName())) {
        return connector;
      }
    }
    throw new IllegalStateException("no connector " + name);
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
      throw new ConfigurationException(
          "cannot listen on port " + port + " (" + variable + "): " + e.getMessage(), e);
    }
  }

  /** The bound port (useful when started on port 0). */
  public int port() {
    return app.port();
  }

  /**
   * Stops the way Kubernetes expects on SIGTERM, losing no call: readiness fails at once, and every answer from then
   * on tells its client to close the connection, while calls are served as before for {@code shutdownDelay} (the
   * pod is leaving the Service's endpoints meanwhile, and callers reconnect to a replica that stays). Then the hook
   * port stops listening, but calls on connections already open are still served: a caller's kept-alive connection
   * stays with this pod whatever the endpoints say, and a 503 there would be a call lost. Once no call is in flight
   * (at most {@code shutdownTimeout}), the server stops.
   */
  public void shutdownGracefully() {
    closing = true; // first: a warm-up under way stops, and the server does not get ready after it
    ready = false;
    LOG.atInfo()
        .addKeyValue("delayMs", config.shutdownDelay().toMillis())
        .log("shutting down: readiness off");
    sleep(config.shutdownDelay());
    stopListening();
    long deadline = System.nanoTime() + config.shutdownTimeout().toNanos();
    while (active.get() > 0 && System.nanoTime() < deadline) {
      sleep(Duration.ofMillis(10));
    }
    boolean drained = active.get() == 0;
    LOG.atInfo()
        .addKeyValue("drained", drained)
        .log("shutting down: calls in flight " + (drained ? "finished" : "cut"));
    close();
  }

  /** No new connection on the hook port; the management port still answers probes until the end. */
  private void stopListening() {
    for (Connector connector : app.jettyServer().server().getConnectors()) {
      if (connector instanceof ServerConnector listening
          && !HttpStack.MANAGEMENT.equals(listening.getName())) {
        listening.close();
      }
    }
    LOG.atInfo().log("shutting down: no new connections; calls on open ones are still served");
  }

  @Override
  public void close() {
    ready = false;
    draining = true;
    watchers.forEach(FileWatcher::close);
    app.stop();
    calls.close();
    writeDeadline.close();
    metrics.close();
  }

  /** What the warm-up before readiness did; null without one. */
  TrainingCalls.Summary warmedUp() {
    return warmedUp;
  }

  /** The names of the connectors Jetty serves now. */
  List<String> connectorNames() {
    return java.util.Arrays.stream(app.jettyServer().server().getConnectors())
        .map(Connector::getName)
        .toList();
  }

  /** Calls written to METAHOOKS_RECORD_DIR since start. */
  public long recordedCalls() {
    return recorder.written();
  }

  /**
   * A process whose heap ran out may have lost any thread (Jetty's acceptor among them) and serve no more while it
   * looks alive: it exits instead, and the kubelet restarts it ({@code -XX:+ExitOnOutOfMemoryError} in the image
   * does the same for every thread).
   */
  public static void exitOnOutOfMemory(Throwable e) {
    ServerLog.exitOnOutOfMemory(e);
  }

  private void readiness(Context ctx) {
    if (ready) {
      ReplyWriter.json(ctx, 200, Map.of("status", "ready"));
    } else {
      ReplyWriter.error(
          ctx, new HookError(ErrorCode.NOT_READY, "the server is starting or shutting down"));
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
   * One hook call, top-down: the route, looked up once here and passed down → the call ({@link HookCalls}) → its
   * reply, written whatever the outcome → access log and metrics.
   */
  private void serve(Context ctx) {
    long started = System.nanoTime();
    String controller = ctx.pathParam("controller");
    String hook = ctx.pathParam("hook");
    Route route = calls.onManagementPort(ctx) ? null : frontDoor.routes().find(controller, hook);
    boolean trainingCall = warmingUp && isTrainingCall(ctx);
    calls.call(
        ctx,
        controller,
        hook,
        route,
        trainingCall,
        (reply, bodyRead, request) -> {
          boolean notModified =
              reply.etag() != null && reply.etag().equals(ctx.header("If-None-Match"));
          boolean written;
          WriteDeadline.Armed deadline = writeDeadline.arm(ctx);
          try {
            written = ReplyWriter.write(ctx, reply, bodyRead, notModified);
          } finally {
            deadline.close();
          }
          if (!trainingCall) { // the warm-up's calls are not the server's traffic: no metrics, log
            // or recording
            account(
                controller,
                hook,
                route != null,
                reply,
                request,
                notModified,
                written,
                Duration.ofNanos(System.nanoTime() - started));
          }
        });
  }

  /** The call's metrics and access log (and its bodies, with METAHOOKS_LOG_BODIES). */
  private void account(
      String controller,
      String hook,
      boolean known,
      Reply reply,
      byte[] request,
      boolean notModified,
      boolean written,
      Duration elapsed) {
    String controllerTag = known ? controller : HookMetrics.UNKNOWN;
    String hookTag = known ? hook : HookMetrics.UNKNOWN;
    metrics.record(controllerTag, hookTag, reply.outcome(), elapsed);
    if (!written) {
      metrics.unwritten(controllerTag, hookTag);
    }
    CallLog.call(controller, hook, reply, notModified ? 304 : reply.status(), elapsed);
    if (request != null && reply.summary().requestRead()) { // kept only with METAHOOKS_LOG_BODIES
      CallLog.bodies(controller, hook, request, reply.body());
    }
  }

  /** A call that came through the in-memory connector, which only the warm-up reaches. */
  private static boolean isTrainingCall(Context ctx) {
    return HttpStack.WARM_UP.equals(
        ServletContextRequest.getServletContextRequest(ctx.req())
            .getConnectionMetaData()
            .getConnector()
            .getName());
  }

  private void wrongMethod(Context ctx) {
    String controller = ctx.pathParam("controller");
    String hook = ctx.pathParam("hook");
    if (!frontDoor.serves(controller, hook)) {
      ReplyWriter.error(ctx, frontDoor.routes().notServed(controller, hook));
      return;
    }
    ctx.header("Allow", "POST");
    ReplyWriter.error(
        ctx,
        new HookError(
            ErrorCode.METHOD_NOT_ALLOWED,
            ctx.method() + " is not allowed on /" + controller + "/" + hook + "; hooks take POST"));
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package dev.metahooks.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP surface: {@code POST /<controller>/<hook>} for every served hook, {@code GET /healthz},
 * {@code /readyz} and {@code /metrics}. Every answer, errors included, is JSON (metrics excepted).
 */
public final class HookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
  private static final String JSON = "application/json";

  private final ServerConfig config;
  private final HookDispatcher dispatcher;
  private final HookMetrics metrics;
  private final Javalin app;
  private volatile boolean ready;

  public HookServer(ServerConfig config, List<Controller> controllers) {
    this.config = config;
    this.dispatcher = new HookDispatcher(controllers);
    this.metrics = new HookMetrics(controllers);
    this.app = Javalin.create(javalin -> {
      javalin.startup.showJavalinBanner = false;
      javalin.startup.showOldJavalinVersionWarning = false;
      javalin.jetty.port = config.port();
      javalin.http.maxRequestSize = config.maxBodyBytes();
      javalin.routes.get("/healthz", ctx -> json(ctx, 200, Map.of("status", "ok")));
      javalin.routes.get("/readyz", this::readiness);
      javalin.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
          .result(metrics.scrape()));
      javalin.routes.post("/{controller}/{hook}", this::hook);
      for (HandlerType method : List.of(HandlerType.GET, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE)) {
        javalin.routes.addHttpHandler(method, "/{controller}/{hook}", this::wrongMethod);
      }
      javalin.routes.error(404, ctx -> {
        if (!JSON.equals(ctx.res().getContentType())) { // our own 404 answers are JSON already
          json(ctx, 404, error("not_found", "no route for " + ctx.method() + " " + ctx.path()));
        }
      });
      javalin.routes.exception(Exception.class, (e, ctx) -> {
        LOG.error("unhandled error on {} {}", ctx.method(), ctx.path(), e);
        json(ctx, 500, error("internal_error", "unexpected server error"));
      });
    });
  }

  public HookServer start() {
    app.start();
    ready = true;
    LOG.info("metahooks listening on port {} with controllers {}", app.port(),
        dispatcher.controllers().stream().map(Controller::name).toList());
    return this;
  }

  /** The bound port (useful when started on port 0). */
  public int port() {
    return app.port();
  }

  @Override
  public void close() {
    ready = false;
    app.stop();
    metrics.close();
  }

  private void readiness(Context ctx) {
    if (ready) {
      json(ctx, 200, Map.of("status", "ready"));
    } else {
      json(ctx, 503, error("not_ready", "the server is starting or shutting down"));
    }
  }

  private void hook(Context ctx) {
    long started = System.nanoTime();
    String controller = ctx.pathParam("controller");
    String hook = ctx.pathParam("hook");
    HookDispatcher.Answer answer = answer(ctx, controller, hook);
    byte[] body;
    try {
      body = Json.MAPPER.writeValueAsBytes(answer.body());
    } catch (JsonProcessingException e) {
      LOG.error("{}/{} returned a response that cannot be written as JSON", controller, hook, e);
      answer = HookDispatcher.error(500, "internal_error", "the response could not be serialised", null);
      body = "{\"error\":\"internal_error\",\"message\":\"the response could not be serialised\"}".getBytes();
    }
    ctx.status(answer.status()).contentType(JSON).result(body);
    boolean known = dispatcher.serves(controller, hook);
    metrics.record(known ? controller : HookMetrics.UNKNOWN, known ? hook : HookMetrics.UNKNOWN, answer.outcome(),
        Duration.ofNanos(System.nanoTime() - started));
  }

  private HookDispatcher.Answer answer(Context ctx, String controller, String hook) {
    if (!dispatcher.serves(controller, hook)) {
      return dispatcher.dispatch(controller, hook, InputStream.nullInputStream());
    }
    String contentType = ctx.contentType();
    if (contentType != null && !isJson(contentType)) {
      return HookDispatcher.error(415, "unsupported_media_type",
          "Content-Type must be application/json, got '" + contentType + "'", null);
    }
    long declared = ctx.contentLength();
    if (declared > config.maxBodyBytes()) {
      return HookDispatcher.error(413, "payload_too_large", new BodyTooLargeException(config.maxBodyBytes()).getMessage(),
          null);
    }
    try (InputStream body = new LimitedInputStream(ctx.req().getInputStream(), config.maxBodyBytes())) {
      return dispatcher.dispatch(controller, hook, body);
    } catch (java.io.IOException e) {
      return HookDispatcher.error(400, "bad_request", "could not read the request body: " + e.getMessage(), null);
    }
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
      throw new IllegalStateException(e);
    }
  }
}

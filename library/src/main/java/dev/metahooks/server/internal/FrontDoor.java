package dev.metahooks.server.internal;

import dev.metahooks.api.Controller;
import dev.metahooks.api.HookResponse;
import dev.metahooks.server.config.ServerConfig;
import java.util.List;

/**
 * Where every hook call comes in, over HTTP ({@link HookCalls}) or without a socket ({@code InProcessHooks}, the
 * offline command, {@code metahooks diff}): the route, resolved once ({@link RouteTable}: 404 for a hook not
 * served), the body limit (413), then the answer as bytes ({@link CachedAnswers}: the response cache, the hook,
 * the writer and its answer limit). What only a socket needs (admission, the deadline, authentication, the
 * recording) is {@link HookCalls}' own.
 */
public final class FrontDoor {
  private final long maxBodyBytes;
  private final RouteTable routes;
  private final CachedAnswers answers;

  private FrontDoor(ServerConfig config, List<Controller> controllers, boolean parseWhole) {
    this.maxBodyBytes = config.maxBodyBytes();
    this.routes = new RouteTable(controllers, parseWhole);
    this.answers = new CachedAnswers(config.responseCacheBytes(), config.maxResponseBytes());
  }

  /** The controllers with the body, answer and cache limits of {@code config}. */
  public static FrontDoor of(ServerConfig config, List<Controller> controllers) {
    return new FrontDoor(config, controllers, false);
  }

  /** The controllers with the default limits and no response cache: every call runs its hook. */
  public static FrontDoor of(List<Controller> controllers) {
    return of(uncached(), controllers);
  }

  /**
   * The same, but every request is parsed whole, whatever the controllers declare they read (a builder's
   * {@code reads}): what a projected parse must answer exactly like.
   */
  public static FrontDoor parsingWhole(List<Controller> controllers) {
    return new FrontDoor(uncached(), controllers, true);
  }

  /** The default limits without a response cache. */
  private static ServerConfig uncached() {
    return ServerConfig.builder().responseCacheBytes(0).build();
  }

  /** Answers a whole request body for {@code /<controller>/<hook>} as the server answers it over HTTP. */
  public Reply call(String controller, String hook, byte[] body) {
    try {
      Route route = routes.route(controller, hook);
      admit(body.length);
      return answers.answer(route, body);
    } catch (HookError e) {
      return Reply.of(e);
    }
  }

  /**
   * The controller's answer before it is written, for what measures or compares the writer.
   *
   * @throws HookError what the call would be refused with instead
   */
  public HookResponse response(String controller, String hook, byte[] body) {
    return answers.response(routes.route(controller, hook), body);
  }

  /** Whether {@code /<controller>/<hook>} is served. */
  public boolean serves(String controller, String hook) {
    return routes.find(controller, hook) != null;
  }

  public List<Controller> controllers() {
    return routes.controllers();
  }

  public RouteTable routes() {
    return routes;
  }

  public CachedAnswers answers() {
    return answers;
  }

  /**
   * Refuses a body longer than the limit, from its length alone (an HTTP call's {@code Content-Length}).
   *
   * @throws HookError a 413
   */
  void admit(long bodyLength) {
    if (bodyLength > maxBodyBytes) {
      throw HookError.from(new BodyTooLargeException(maxBodyBytes));
    }
  }

  /** The answer to a routed call's whole body. */
  Reply answer(Route route, byte[] body) {
    return answers.answer(route, body);
  }
}

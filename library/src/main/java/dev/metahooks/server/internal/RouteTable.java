package dev.metahooks.server.internal;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.json.Projection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which {@code /<controller>/<hook>} is served, decided once per call: every route is built when the table is, so
 * that a call's lookup is two map reads and a path the table does not hold is a 404 saying what is served.
 */
public final class RouteTable {
  private static final Logger LOG = LoggerFactory.getLogger(RouteTable.class);

  private final Map<String, Controller> controllers = new TreeMap<>();

  /** Controller name → hook path → route. */
  private final Map<String, Map<String, Route>> routes = new HashMap<>();

  /**
   * The routes of {@code controllers}; with {@code parseWhole} every request is parsed whole, whatever the
   * controllers declare they read (what a projected parse must answer exactly like).
   */
  RouteTable(List<Controller> controllers, boolean parseWhole) {
    for (Controller controller : controllers) {
      if (this.controllers.put(controller.name(), controller) != null) {
        throw new IllegalArgumentException("two controllers named " + controller.name());
      }
      Projection unread = parseWhole ? Projection.NONE : Projection.of(controller.reads());
      Map<String, Route> hooks = new HashMap<>();
      for (Hook hook : controller.hooks()) {
        hooks.put(hook.path(), new Route(controller, hook, unread));
      }
      routes.put(controller.name(), hooks);
    }
  }

  /** The route of {@code /<controller>/<hook>}; null when it is not served. */
  public Route find(String controller, String hook) {
    Route route = routes.getOrDefault(controller, Map.of()).get(hook);
    LOG.atDebug()
        .addKeyValue("controller", controller)
        .addKeyValue("hook", hook)
        .log(route != null ? "routed to the hook" : "no such hook: 404");
    return route;
  }

  /**
   * The route of {@code /<controller>/<hook>}.
   *
   * @throws HookError a 404 saying what is served, when it is not
   */
  Route route(String controller, String hook) {
    Route route = find(controller, hook);
    if (route == null) {
      throw notServed(controller, hook);
    }
    return route;
  }

  List<Controller> controllers() {
    return List.copyOf(controllers.values());
  }

  /** The 404 for {@code /<controller>/<hook>} that is not served, saying what is. */
  public HookError notServed(String controllerName, String hookPath) {
    Controller controller = controllers.get(controllerName);
    if (controller == null) {
      return new HookError(
          ErrorCode.NOT_FOUND,
          "no controller named '"
              + controllerName
              + "'; served: "
              + String.join(", ", controllers.keySet()));
    }
    return new HookError(
        ErrorCode.NOT_FOUND,
        "controller '"
            + controllerName
            + "' has no '"
            + hookPath
            + "' hook; it serves: "
            + String.join(", ", controller.hooks().stream().map(Hook::path).toList()));
  }
}

package dev.metahooks.server.internal;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.json.Projection;

/**
 * The hook a call is for: the controller, the hook, and what the parse may leave unread of the observed objects
 * for that controller. Resolved once, where the call comes in ({@link RouteTable#route}), and passed down, so that
 * no layer below looks the path up again.
 */
public record Route(Controller controller, Hook hook, Projection unread) {
  String controllerName() {
    return controller.name();
  }

  String hookPath() {
    return hook.path();
  }
}

package dev.metahooks.server;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import java.util.List;

/**
 * What {@code GET /controllers} answers: the version and, per served controller, its hooks and their paths, so
 * that an operator can see what a running server serves without reading its image.
 */
record ControllerListing(String version, List<Entry> controllers) {
  /** One controller: its URL name, its hooks, and the paths Metacontroller calls. */
  record Entry(String name, List<String> hooks, List<String> paths) {}

  static ControllerListing of(List<Controller> controllers) {
    return new ControllerListing(BuildInfo.version(), controllers.stream().map(ControllerListing::entry).toList());
  }

  private static Entry entry(Controller controller) {
    List<String> hooks = controller.hooks().stream().sorted().map(Hook::path).toList();
    return new Entry(controller.name(), hooks, hooks.stream().map(h -> "/" + controller.name() + "/" + h).toList());
  }
}

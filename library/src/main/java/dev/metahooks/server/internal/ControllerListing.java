package dev.metahooks.server.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import java.util.List;

/**
 * What {@code GET /controllers} answers: metahooks' version and, per served controller, its own version (when it
 * declares one), its hooks and their paths, so that an operator can see what a running server serves without
 * reading its image.
 */
public record ControllerListing(String version, List<Entry> controllers) {
  /** One controller: its URL name, its version (left out when undeclared), its hooks, the paths it is called at. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Entry(String name, String version, List<String> hooks, List<String> paths) {}

  public static ControllerListing of(List<Controller> controllers) {
    return new ControllerListing(
        BuildInfo.version(), controllers.stream().map(ControllerListing::entry).toList());
  }

  private static Entry entry(Controller controller) {
    List<String> hooks = controller.hooks().stream().sorted().map(Hook::path).toList();
    List<String> paths = hooks.stream().map(h -> "/" + controller.name() + "/" + h).toList();
    return new Entry(controller.name(), controller.version().orElse(null), hooks, paths);
  }
}

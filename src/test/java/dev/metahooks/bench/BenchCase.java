package dev.metahooks.bench;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.Projection;
import dev.metahooks.server.internal.FrontDoor;

/**
 * A named benchmark request: {@code controller[:size]} for the generated ones, {@code controller} alone for a
 * small realistic request (its golden fixture, filled), {@code postgrescluster:<sample>} for the samples.
 */
public record BenchCase(String name, String controller, String hook, byte[] body) {
  public static BenchCase of(String name) {
    String[] parts = name.split(":", 2);
    String controller = parts[0];
    String argument = parts.length > 1 ? parts[1] : "";
    RequestGenerator generator = new RequestGenerator(42);
    return switch (controller) {
      case "catset" -> sync(name, controller, generator.catset(size(argument)));
      case "indexedjob" -> sync(name, controller, generator.indexedjob(size(argument)));
      case "service-per-pod" -> sync(name, controller, generator.servicePerPod(size(argument)));
      case "global-configmap" -> sync(name, controller, generator.globalConfigMap(size(argument)));
      case "configmap-propagation" ->
          sync(name, controller, generator.configMapPropagation(size(argument)));
      case "secret-propagation" ->
          sync(name, controller, generator.secretPropagation(size(argument)));
      case "namespace-list" -> sync(name, controller, generator.namespaceList(size(argument)));
      case "configmap-list" -> sync(name, controller, generator.configMapList(size(argument)));
      case "postgrescluster" ->
          switch (argument) {
            case "dev-first-sync" ->
                sync(
                    name,
                    controller,
                    generator.filled("postgrescluster/sync/01-first-sync-dev-sample.request.json"));
            case "ha-ready" ->
                sync(
                    name,
                    controller,
                    generator.filled("postgrescluster/sync/13-ha-ready-v2-keys.request.json"));
            case "customize" ->
                new BenchCase(
                    name,
                    controller,
                    "customize",
                    generator.filled(
                        "postgrescluster/customize/01-related-database-pods-v2.request.json"));
            default ->
                throw new IllegalArgumentException("unknown postgrescluster sample " + argument);
          };
      default -> sync(name, controller, generator.filled(smallFixture(controller)));
    };
  }

  /** The one fixture each small controller is measured on: a state with its children observed. */
  private static String smallFixture(String controller) {
    return switch (controller) {
      case "bluegreen" -> "bluegreen/sync/03-steady-blue-active-green-idle.request.json";
      case "daemonjob" -> "daemonjob/sync/06-daemonset-partly-ready.request.json";
      case "hello-world" -> "hello-world/sync/04-pod-pending.request.json";
      case "update-strategy" ->
          "update-strategy/sync/05-ondelete-outdated-child-still-desired-with-new-value.request.json";
      case "crd-roles" -> "crd-roles/sync/02-reader-role-present.request.json";
      case "clustered-parent" -> "clustered-parent/sync/02-binding-present.request.json";
      case "pod-name-label" -> "pod-name-label/sync/01-v1-statefulset-pod.request.json";
      default -> throw new IllegalArgumentException("unknown benchmark request " + controller);
    };
  }

  private static BenchCase sync(String name, String controller, byte[] body) {
    return new BenchCase(name, controller, "sync", body);
  }

  private static int size(String argument) {
    return Integer.parseInt(argument);
  }

  /** Whether the front door answers this request with {@code status} (a benchmark of an error is no use). */
  /** What the request's controller declares its hooks read of observed objects, as the server projects them. */
  public Projection projection() {
    return Projection.of(
        Catalog.controllers().stream()
            .filter(c -> c.name().equals(controller))
            .findFirst()
            .orElseThrow()
            .reads());
  }

  public boolean expectsStatus(FrontDoor frontDoor, int status) {
    return frontDoor.call(controller, hook, body).status() == status;
  }
}

package dev.metahooks.controllers;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.helloworld.HelloWorldController;
import dev.metahooks.controllers.postgres.PostgresClusterController;
import java.util.List;

/** Every controller the server hosts, each under its fixed URL name, sorted by that name. */
public final class Catalog {
  private Catalog() {}

  /** The controllers as the server runs them: wall clock, secure randomness. */
  public static List<Controller> controllers() {
    return controllers(Sources.system());
  }

  /** The controllers with the given clock and randomness (tests pin them). */
  public static List<Controller> controllers(Sources sources) {
    return List.of(
        HelloWorldController.controller(),
        PostgresClusterController.controller(sources));
  }
}

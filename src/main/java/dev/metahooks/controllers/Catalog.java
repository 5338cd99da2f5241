package dev.metahooks.controllers;

import dev.metahooks.api.Controller;
import dev.metahooks.controllers.helloworld.HelloWorldController;
import java.util.List;

/** Every controller the server hosts, each under its fixed URL name. */
public final class Catalog {
  private Catalog() {}

  public static List<Controller> controllers() {
    return List.of(
        HelloWorldController.controller());
  }
}

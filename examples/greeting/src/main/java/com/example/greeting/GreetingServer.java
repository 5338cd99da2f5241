package com.example.greeting;

import dev.metahooks.Metahooks;
import dev.metahooks.api.Controller;
import java.util.List;

/**
 * Serves the greeting hook on port 8080 (METAHOOKS_PORT); {@code Metahooks.withBuiltIns(...)} would add metahooks'
 * own. With arguments, answers one request offline: {@code java ... GreetingServer sync greeting < request.json}.
 */
public final class GreetingServer {
  private GreetingServer() {}

  public static void main(String[] args) {
    List<Controller> controllers = List.of(GreetingController.controller());
    if (args.length > 0) {
      System.exit(Metahooks.runOffline(args, System.in, System.out, System.err, controllers));
    }
    Metahooks.serve(controllers);
  }
}

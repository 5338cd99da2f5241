package com.example.greeting;

import dev.metahooks.Metahooks;
import dev.metahooks.api.Controller;
import dev.metahooks.server.config.ConfigurationException;
import java.util.List;

/**
 * {@code java -jar target/greeting.jar} serves the greeting hook on port 8080 (METAHOOKS_PORT);
 * {@code BuiltInControllers.with(...)} would add metahooks' own. With arguments, answers one request offline:
 * {@code java -jar target/greeting.jar sync greeting < request.json}.
 */
public final class GreetingServer {
  private GreetingServer() {}

  public static void main(String[] args) {
    List<Controller> controllers = List.of(GreetingController.controller());
    if (args.length > 0) {
      System.exit(Metahooks.runOffline(args, System.in, System.out, System.err, controllers));
    }
    try {
      Metahooks.serve(controllers);
    } catch (ConfigurationException e) {
      // One line that names the setting: the fix is in the Deployment, not in the code.
      System.err.println("greeting: " + e.getMessage());
      System.exit(2);
    }
  }
}

package com.example.greeting;

import dev.metahooks.Metahooks;
import java.util.List;

/** Serves the greeting hook on port 8080 (METAHOOKS_PORT); {@code Metahooks.withBuiltIns(...)} would add metahooks' own. */
public final class GreetingServer {
  private GreetingServer() {}

  public static void main(String[] args) {
    Metahooks.serve(List.of(GreetingController.controller()));
  }
}

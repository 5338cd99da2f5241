package dev.metahooks;

import dev.metahooks.api.Controller;
import dev.metahooks.controllers.Catalog;
import java.util.ArrayList;
import java.util.List;

/**
 * The controllers metahooks ships (postgrescluster and the ports of Metacontroller's examples), for an application
 * that serves them beside its own: {@code Metahooks.serve(BuiltInControllers.with(mine))}. They come with the
 * {@code dev.metahooks:metahooks} artifact; the library ({@code metahooks-library}) has none.
 */
public final class BuiltInControllers {
  private BuiltInControllers() {}

  /** Every built-in controller. */
  public static List<Controller> all() {
    return Catalog.controllers();
  }

  /** {@code own} followed by the built-in controllers; a name used twice fails when the server is made. */
  public static List<Controller> with(Controller... own) {
    List<Controller> all = new ArrayList<>(List.of(own));
    all.addAll(all());
    return all;
  }
}

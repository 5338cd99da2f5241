package dev.metahooks.emulator;

import dev.metahooks.api.Controller;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ServerConfig;
import java.util.List;

/**
 * The real hook server with a chosen list of controllers (for example small ones defined in a test), on a
 * free port. Close it when done.
 */
public final class LocalHooks implements AutoCloseable {
  private final HookServer server;

  private LocalHooks(HookServer server) {
    this.server = server;
  }

  public static LocalHooks start(Controller... controllers) {
    return start(List.of(controllers));
  }

  public static LocalHooks start(List<Controller> controllers) {
    return startOnPort(0, controllers);
  }

  /** On the given port: a hook server started again where the one before it was (a restart). */
  public static LocalHooks startOnPort(int port, List<Controller> controllers) {
    return new LocalHooks(
        new HookServer(ServerConfig.defaults().withPort(port), controllers).start());
  }

  public int port() {
    return server.port();
  }

  /** {@code http://localhost:<port>}, to give to {@link Metacontroller}. */
  public String baseUrl() {
    return "http://localhost:" + server.port();
  }

  @Override
  public void close() {
    server.close();
  }
}

package dev.metahooks;

import dev.metahooks.api.Controller;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ServerConfig;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * Serving controllers from an application of one's own, in a few lines:
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *   Metahooks.serve(List.of(GreetingController.controller()));                  // only yours
 *   Metahooks.serve(BuiltInControllers.with(GreetingController.controller()));   // yours and metahooks' own
 * }
 * }</pre>
 *
 * The server is configured from the {@code METAHOOKS_*} environment variables, as {@code java -jar metahooks.jar}
 * is ({@code --help} lists them), and drains its calls when the JVM is told to stop. Logging goes through SLF4J
 * to whatever provider the application has.
 */
public final class Metahooks {
  private Metahooks() {}

  /**
   * Starts serving {@code controllers} with the settings of the environment and returns the running server; a
   * shutdown hook drains it on SIGTERM.
   *
   * @throws dev.metahooks.server.config.ConfigurationException when a setting is invalid or the port is taken
   */
  public static HookServer serve(List<Controller> controllers) {
    return serve(ServerConfig.fromEnvironment(System.getenv()), controllers);
  }

  /**
   * The same with settings of one's own ({@code ServerConfig.defaults()}, its builder and {@code with…} methods):
   * ready once the training requests of the controllers that ship them have been served for
   * {@code config.warmUp()} ({@code METAHOOKS_WARM_UP_MS}; the built-in controllers ship one per hook), or as soon
   * as it listens when that is zero, as it is unless set.
   */
  public static HookServer serve(ServerConfig config, List<Controller> controllers) {
    HookServer server = new HookServer(config, controllers);
    // SIGTERM: readiness off, drain, stop (see HookServer.shutdownGracefully); from before the port
    // listens, so
    // that calls that came in during the warm-up are drained too.
    Thread drain = new Thread(server::shutdownGracefully, "shutdown");
    Runtime.getRuntime().addShutdownHook(drain);
    try {
      return server.start();
    } catch (
        RuntimeException e) { // nothing to drain: the process exits with the one line that says why
      Runtime.getRuntime().removeShutdownHook(drain);
      throw e;
    }
  }

  /**
   * Answers one request offline, as {@code java -jar metahooks.jar sync <controller> < request.json} does for the
   * built-in controllers: {@code args} are the hook ({@code sync}, {@code finalize}, {@code customize}) and the
   * controller's name, the request is read from {@code in} and the answer (the server's, indented) printed on
   * {@code out}. Returns the exit code: 0 for a 200, 2 for a request refused or wrong arguments (the
   * usage goes to {@code err}), 1 for an internal error. An application's main offers it for its controllers:
   *
   * <pre>{@code
   * if (args.length > 0) {
   *   System.exit(Metahooks.runOffline(args, System.in, System.out, System.err, controllers));
   * }
   * }</pre>
   */
  public static int runOffline(
      String[] args,
      InputStream in,
      PrintStream out,
      PrintStream err,
      List<Controller> controllers) {
    return OfflineHook.run(args, in, out, err, controllers);
  }
}

package dev.metahooks;

import dev.metahooks.cli.Help;
import dev.metahooks.cli.Training;
import dev.metahooks.cli.diff.DiffCommand;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.logging.JsonLogging;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.internal.BuildInfo;

/**
 * {@code java -jar metahooks.jar} serves every controller over HTTP;
 * {@code java -jar metahooks.jar sync|finalize|customize <controller> < request.json} answers one request
 * offline and prints the response; {@code java -jar metahooks.jar train <dir>} serves the requests below
 * {@code dir} once and stops (a training run for a class-data archive, see {@link Training});
 * {@code --version} and {@code --help} say what this is.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    JsonLogging.useForThisProcess();
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("version"))) {
      System.out.println("metahooks " + BuildInfo.version());
      return;
    }
    if (args.length == 1
        && (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help"))) {
      Help.print(System.out);
      return;
    }
    if (args.length > 0 && args[0].equals("diff")) {
      System.exit(
          DiffCommand.run(
              java.util.Arrays.asList(args).subList(1, args.length), System.out, System.err));
    }
    if (args.length > 0 && args[0].equals("train")) {
      System.exit(Training.run(args, System.err));
    }
    if (args.length > 0) {
      System.exit(
          Metahooks.runOffline(args, System.in, System.out, System.err, Catalog.controllers()));
    }
    // A thread that dies of an OutOfMemoryError (an acceptor, say) would leave a process that looks
    // alive and
    // serves no more: exit instead, and let the kubelet restart it.
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> HookServer.exitOnOutOfMemory(e));
    try {
      Metahooks.serve(Catalog.controllers());
    } catch (ConfigurationException e) {
      // One line that names the setting, no stack trace: the fix is in the Deployment, not in the
      // code.
      System.err.println("metahooks: " + e.getMessage());
      System.exit(2);
    }
  }
}

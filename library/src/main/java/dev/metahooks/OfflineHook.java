package dev.metahooks;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.InProcessHooks;
import dev.metahooks.server.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Answers one hook request without a server or a cluster: the request JSON on standard input, the response
 * on standard output, exactly as the server would answer it: through the server's front door and answer writer
 * ({@link InProcessHooks}: routing, the body limit, the answer limit), printed indented. Exit code 0 for a 200
 * answer, 2 for a request the hook refuses (the error JSON is printed), 1 for an internal error.
 */
final class OfflineHook {
  private static final String USAGE =
      "usage: metahooks [sync|finalize|customize] <controller> < request.json";

  private OfflineHook() {}

  static int run(
      String[] args,
      InputStream in,
      PrintStream out,
      PrintStream err,
      List<Controller> controllers) {
    return run(args, in, out, err, controllers, ServerConfig.defaults());
  }

  /** The same with the body and answer limits of {@code config}. */
  static int run(
      String[] args,
      InputStream in,
      PrintStream out,
      PrintStream err,
      List<Controller> controllers,
      ServerConfig config) {
    if (args.length != 2 || Hook.fromPath(args[0]).isEmpty()) {
      err.println(USAGE);
      err.println(
          "controllers: " + String.join(", ", controllers.stream().map(Controller::name).toList()));
      return 2;
    }
    InProcessHooks.Response answer;
    try {
      answer = InProcessHooks.of(config, controllers).call(args[1], args[0], in.readAllBytes());
      out.println(
          JsonTrees.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(answer.json()));
    } catch (IOException | UncheckedIOException e) {
      err.println("metahooks: could not read the request or write the response: " + e.getMessage());
      return 1;
    }
    out.flush();
    if (answer.status() == 200) {
      return 0;
    }
    return answer.status() >= 500 ? 1 : 2;
  }
}

package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.replay.CallInputs;
import dev.metahooks.server.InProcessHooks;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.RecordingKey;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code metahooks diff}: what this build's hooks would change. Runs each recorded (or live-built) request through
 * the hooks at hand, by the server's own front door and answer writer ({@link InProcessHooks}: a body or an answer
 * over the limits is refused as the server refuses it), and compares the answer with the recorded one (or with
 * what the cluster holds). Exit code 0 when nothing would change, 1 when something would, 2 for input it cannot
 * use.
 */
public final class DiffCommand {
  static final String USAGE =
      """
      usage: metahooks diff [--observed] [--key <file>] <recording, request or directory>...
               compare with the answers recorded with the requests (METAHOOKS_RECORD_DIR), or
               with --observed, with the children and status the requests observed; a hook request
               (what Metacontroller sends) is compared with what it observed; --key: the file of
               METAHOOKS_RECORD_KEY_FILE, which opens the recordings' sealed Secret values
             metahooks diff --manifest <controller.yaml> --parent <parents.json> [<observed.json>...]
               build the requests from live objects and compare with the children observed; the files
               YAML or JSON, as they are (no cluster needed to read them):
                 kubectl get <parent kind> -n <ns> -o json > parents.json
                 kubectl get <child kinds> -n <ns> -o json > observed.json
      exit code: 0 nothing would change, 1 something would, 2 bad input""";
  private static final String SEE_HELP = "(metahooks diff --help: the usage)";

  /** The front door's answer for a hook this build does not serve. */
  private static final int NOT_SERVED = 404;

  private static final ServerConfig DEFAULTS = ServerConfig.defaults();

  private DiffCommand() {}

  public static int run(List<String> args, PrintStream out, PrintStream err) {
    return run(args, out, err, at -> Catalog.controllers(clockAt(at)));
  }

  /** {@code controllers} gives the controllers that answer as if at that instant (the clock their hooks read). */
  public static int run(
      List<String> args,
      PrintStream out,
      PrintStream err,
      Function<Instant, List<Controller>> controllers) {
    return run(args, out, err, controllers, DEFAULTS);
  }

  /** The same with the body and answer limits of {@code config}, as a server with them would answer. */
  static int run(
      List<String> args,
      PrintStream out,
      PrintStream err,
      Function<Instant, List<Controller>> controllers,
      ServerConfig config) {
    ServerConfig uncached = config.withResponseCacheBytes(0); // each call is new to it
    if (args.contains("--help") || args.contains("-h")) {
      out.println(USAGE);
      return 0;
    }
    List<DiffCase> cases;
    try {
      cases = cases(args, customize(controllers, uncached));
    } catch (Cases.BadInput e) {
      err.println("metahooks diff: " + e.getMessage() + " " + SEE_HELP);
      return 2;
    }
    List<ParentDiff> diffs = new ArrayList<>();
    for (DiffCase call : cases) {
      List<Controller> served = controllers.apply(call.answeredAt());
      // The recorded call's time and generated secrets: an unchanged build answers as it did.
      InProcessHooks.Response answer =
          CallInputs.replay(call.answeredAt(), call.generated())
              .during(
                  () -> answer(uncached, served, call.controller(), call.hook(), call.request()));
      if (answer.status() == NOT_SERVED) {
        err.println(
            "metahooks diff: "
                + call.source()
                + ": this build serves no "
                + call.controller()
                + "/"
                + call.hook()
                + " hook; it serves: "
                + String.join(", ", served.stream().map(Controller::name).toList()));
        return 2;
      }
      diffs.add(
          answer.status() == 200
              ? ParentDiff.of(call, answer.json())
              : ParentDiff.refused(call, refusal(answer)));
    }
    return new DiffReport(out).print(diffs) ? 1 : 0;
  }

  /**
   * The answer of this build's hook as the server sends it: through its front door and answer writer
   * ({@link InProcessHooks}), body and answer limits included.
   */
  private static InProcessHooks.Response answer(
      ServerConfig config,
      List<Controller> controllers,
      String controller,
      String hook,
      JsonNode request) {
    return InProcessHooks.of(config, controllers)
        .call(controller, hook, request.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** A refused answer as the report names it: the status and the error body's message. */
  private static String refusal(InProcessHooks.Response answer) {
    JsonNode body = answer.json();
    return answer.status() + " " + body.path("message").asText(body.toString());
  }

  /**
   * The wall clock stopped at {@code at}; secrets from the system's source, which gives a replayed call the ones it
   * generated when recorded ({@link CallInputs}).
   */
  private static Sources clockAt(Instant at) {
    Sources system = Sources.system();
    return new Sources() {
      @Override
      public Instant now() {
        return at;
      }

      @Override
      public String secret(String purpose, int length) {
        return system.secret(purpose, length);
      }
    };
  }

  /** Calls the customize hook of this build, as Metacontroller would before a live sync. */
  private static Cases.Customize customize(
      Function<Instant, List<Controller>> controllers, ServerConfig config) {
    return (controller, request) -> {
      InProcessHooks.Response answer =
          answer(config, controllers.apply(Instant.now()), controller, "customize", request);
      if (answer.status() == NOT_SERVED) {
        throw new Cases.BadInput("this build serves no " + controller + "/customize hook");
      }
      if (answer.status() != 200) {
        throw new Cases.BadInput(controller + "/customize refused the parent: " + refusal(answer));
      }
      return answer.json();
    };
  }

  private static RecordingKey key(Path file) {
    try {
      return RecordingKey.read(file, "--key");
    } catch (ConfigurationException e) {
      throw new Cases.BadInput(e.getMessage());
    }
  }

  private static List<DiffCase> cases(List<String> args, Cases.Customize customize) {
    if (args.isEmpty()) {
      throw new Cases.BadInput("nothing to compare");
    }
    if (!args.contains("--manifest") && !args.contains("--parent")) {
      List<String> files = new ArrayList<>(args);
      boolean observed = files.remove("--observed");
      RecordingKey key = null;
      int keyAt = files.indexOf("--key");
      if (keyAt >= 0) {
        if (keyAt + 1 >= files.size()) {
          throw new Cases.BadInput("--key needs a file");
        }
        key = key(Path.of(files.remove(keyAt + 1)));
        files.remove(keyAt);
      }
      if (files.isEmpty() || files.stream().anyMatch(a -> a.startsWith("--"))) {
        throw new Cases.BadInput(
            files.isEmpty()
                ? "nothing to compare"
                : "unknown option "
                    + files.stream().filter(a -> a.startsWith("--")).findFirst().get());
      }
      return Cases.recordings(files.stream().map(Path::of).toList(), observed, key);
    }
    Path manifest = null;
    Path parents = null;
    List<Path> observed = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if ((arg.equals("--manifest") || arg.equals("--parent")) && i + 1 >= args.size()) {
        throw new Cases.BadInput(arg + " needs a file");
      }
      switch (arg) {
        case "--manifest" -> manifest = Path.of(args.get(++i));
        case "--parent" -> parents = Path.of(args.get(++i));
        default -> {
          if (arg.startsWith("--")) {
            throw new Cases.BadInput("unknown option " + arg);
          }
          observed.add(Path.of(arg));
        }
      }
    }
    if (manifest == null || parents == null) {
      throw new Cases.BadInput("live requests need both --manifest and --parent");
    }
    return Cases.live(manifest, parents, observed, customize);
  }
}

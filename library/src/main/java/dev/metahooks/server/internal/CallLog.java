package dev.metahooks.server.internal;

import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;

/** The access log: one line per hook call; and, only with METAHOOKS_LOG_BODIES, its bodies, Secrets redacted. */
public final class CallLog {
  /** The server's logger: operators filter on it. */
  private static final Logger LOG = ServerLog.LOG;

  private CallLog() {}

  /** One line per hook call, with what it was about and how it went; never a body. */
  public static void call(
      String controller, String hook, Reply reply, int status, Duration elapsed) {
    if (!LOG.isInfoEnabled()) {
      return;
    }
    CallSummary about = reply.summary();
    var line =
        LOG.atInfo()
            .addKeyValue("controller", controller)
            .addKeyValue("hook", hook)
            .addKeyValue("status", status)
            .addKeyValue("outcome", reply.outcome())
            .addKeyValue("durationMs", elapsed.toNanos() / 1_000_000.0);
    if (about.requestRead()) {
      line =
          line.addKeyValue("hookVersion", about.hookVersion())
              .addKeyValue("kind", about.kind())
              .addKeyValue("namespace", about.namespace())
              .addKeyValue("name", about.name())
              .addKeyValue("generation", about.generation());
    }
    if (about.children() >= 0) {
      line = line.addKeyValue("children", about.children());
    }
    if (reply.status() == 200) {
      line = line.addKeyValue("cached", reply.cached());
    }
    line.log("hook call");
  }

  /** Request and response, Secret values redacted; only with METAHOOKS_LOG_BODIES, for debugging. */
  public static void bodies(String controller, String hook, byte[] request, Blocks response) {
    try {
      LOG.atInfo()
          .addKeyValue("controller", controller)
          .addKeyValue("hook", hook)
          .addKeyValue(
              "request", Redaction.redactSecrets(JsonTrees.MAPPER.readTree(request)).toString())
          .addKeyValue(
              "response",
              Redaction.redactSecrets(JsonTrees.MAPPER.readTree(response.stream())).toString())
          .log("hook bodies");
    } catch (IOException e) {
      LOG.atWarn().addKeyValue("error", e.toString()).log("hook bodies cannot be logged");
    }
  }
}

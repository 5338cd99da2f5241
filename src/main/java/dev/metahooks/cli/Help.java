package dev.metahooks.cli;

import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.BuildInfo;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code metahooks --help}: the server mode, the offline commands and every setting. The settings are those
 * {@link ServerConfig#variables()} reads, so the list cannot leave one out; each has a line here (a test holds
 * this, the table of docs/configuration.md and the server together; that page has the whole story of each).
 */
public final class Help {
  static final Map<String, String> SUMMARIES =
      Map.ofEntries(
          Map.entry("METAHOOKS_PORT", "port, HTTP or HTTPS (default 8080)"),
          Map.entry(
              "METAHOOKS_MANAGEMENT_PORT", "also serve probes and metrics on this plain-HTTP port"),
          Map.entry("METAHOOKS_MAX_BODY_BYTES", "largest request body (413 beyond)"),
          Map.entry(
              "METAHOOKS_BODY_BUDGET_BYTES", "request-body bytes in memory at once (429 beyond)"),
          Map.entry("METAHOOKS_MAX_RESPONSE_BYTES", "largest answer (422 beyond)"),
          Map.entry("METAHOOKS_MAX_CONCURRENT_HOOKS", "hook calls served at once (429 beyond)"),
          Map.entry(
              "METAHOOKS_HOOK_DEADLINE_MS",
              "a call not answered by then gets 503 (default 5000, below 10000)"),
          Map.entry(
              "METAHOOKS_IDLE_TIMEOUT_MS",
              "idle connections are closed after this (default 30000)"),
          Map.entry(
              "METAHOOKS_WRITE_TIMEOUT_MS",
              "an answer not taken by then ends its connection (default 5000)"),
          Map.entry(
              "METAHOOKS_WARM_UP_MS",
              "serve the training calls this long before ready (default 5000, 0: off)"),
          Map.entry(
              "METAHOOKS_SHUTDOWN_DELAY_MS",
              "on SIGTERM, readiness off and still serving this long (default 3000)"),
          Map.entry(
              "METAHOOKS_SHUTDOWN_TIMEOUT_MS",
              "then only open connections are served, calls in flight get this long (default 10000)"),
          Map.entry(
              "METAHOOKS_TOKEN_FILE", "hook calls need 'Authorization: Bearer <file content>'"),
          Map.entry("METAHOOKS_TLS_CERT_FILE", "PEM certificate: the port speaks HTTPS"),
          Map.entry("METAHOOKS_TLS_KEY_FILE", "PEM key of that certificate"),
          Map.entry(
              "METAHOOKS_TLS_CLIENT_CA_FILE",
              "clients must present a certificate signed by this CA"),
          Map.entry(
              "METAHOOKS_FILE_CHECK_INTERVAL_MS",
              "how often token and certificate files are re-read (default 10000)"),
          Map.entry(
              "METAHOOKS_LOG_LEVEL",
              "error, warn, info (default) or debug for metahooks' own logs"),
          Map.entry(
              "METAHOOKS_LIBRARY_LOG_LEVEL",
              "error, warn (default), info or debug for every other logger (Jetty, Javalin)"),
          Map.entry(
              "METAHOOKS_RESPONSE_CACHE_BYTES",
              "recent answers kept by request hash (default 32 MiB, 0 off)"),
          Map.entry(
              "METAHOOKS_LOG_BODIES",
              "true: also log request and response bodies, Secrets redacted"),
          Map.entry(
              "METAHOOKS_RECORD_DIR",
              "record sampled calls answered 200 here, Secrets redacted (default off)"),
          Map.entry(
              "METAHOOKS_RECORD_SAMPLE", "record one call in this many (default 1: every call)"),
          Map.entry(
              "METAHOOKS_RECORD_MAX_FILES",
              "recordings kept at most; the oldest go first (default 1000)"),
          Map.entry(
              "METAHOOKS_RECORD_MAX_BYTES",
              "bytes of recordings kept at most (default 268435456, 256 MiB)"),
          Map.entry(
              "METAHOOKS_RECORD_KEY_FILE",
              "seal Secret values in recordings under this key (32+ bytes) instead of"
                  + " masking them, so that metahooks diff with the key replays calls exactly (default unset)"));

  private Help() {}

  public static void print(PrintStream out) {
    out.println(
        "metahooks "
            + BuildInfo.version()
            + ": Kubernetes operators as pure Java functions, served to"
            + " Metacontroller as webhooks");
    out.println();
    out.println("usage:");
    out.println(
        "  metahooks                                     serve every controller's hooks over HTTP");
    out.println("  metahooks sync|finalize|customize <controller> < request.json");
    out.println("                                                answer one hook request offline");
    out.println(
        "  metahooks diff <recordings or files...>       what this version's hooks would change "
            + "(metahooks diff --help)");
    out.println(
        "  metahooks train <dir>                         serve the requests below dir once "
            + "(class-data archive training)");
    out.println("  metahooks --version | --help");
    out.println();
    out.println(
        "environment (every setting has a default that works; docs/configuration.md has the details):");
    for (String variable : new TreeSet<>(ServerConfig.variables())) {
      out.printf(
          "  %-34s %s%n", variable, SUMMARIES.getOrDefault(variable, "see docs/configuration.md"));
    }
  }
}

package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Poll;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real process, as Kubernetes runs it: started with environment variables, serving, logging one JSON line
 * per hook call, and stopping on SIGTERM without dropping a call in flight.
 */
class ProcessLifecycleIT {
  @TempDir Path dir;
  private Process process;
  private int port;

  /** Where probes are asked: the hook port, or the management port when one is set. */
  private int probePort;

  @AfterEach
  void kill() {
    if (process != null) {
      process.destroyForcibly();
    }
  }

  private void start(String... env) throws Exception {
    launch(env);
    Poll.until(
        "readiness of the process",
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError(
                "the process exited: " + Files.readString(dir.resolve("stderr.log")));
          }
          return status("/readyz") == 200;
        });
  }

  /** Starts the process; it may not be ready yet. */
  private void launch(String... env) throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.metahooks.Main")
            .redirectError(dir.resolve("stderr.log").toFile())
            .redirectOutput(dir.resolve("stdout.log").toFile());
    builder.environment().put("METAHOOKS_PORT", String.valueOf(port));
    builder.environment().put("METAHOOKS_LOG_LEVEL", "info");
    builder
        .environment()
        .put("METAHOOKS_WARM_UP_MS", "0"); // ready at once: WarmUpTest covers the warm-up
    for (int i = 0; i < env.length; i += 2) {
      builder.environment().put(env[i], env[i + 1]);
    }
    probePort =
        Integer.parseInt(
            builder.environment().getOrDefault("METAHOOKS_MANAGEMENT_PORT", String.valueOf(port)));
    process = builder.start();
  }

  /** A hook call to the process, as Metacontroller makes it. */
  private HttpResponse<String> post(String path, byte[] body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private String get(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + probePort + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private int status(String path) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://localhost:" + probePort + path)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** SIGTERM, then every line the process logged. */
  private List<JsonNode> stopAndReadLog() throws Exception {
    process.destroy();
    assertThat(process.waitFor(15, TimeUnit.SECONDS)).as("stopped").isTrue();
    return logLines();
  }

  private List<JsonNode> logLines() throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("stderr.log"))) {
      if (!line.isBlank()) {
        lines.add(JsonTrees.MAPPER.readTree(line)); // every line is JSON
      }
    }
    return lines;
  }

  @Test
  void sigtermDrainsTheCallInFlightThenExits() throws Exception {
    // The delay outlasts the checks below on a busy machine: once it ends, the hook port takes no
    // new connection.
    start("METAHOOKS_SHUTDOWN_DELAY_MS", "3000", "METAHOOKS_SHUTDOWN_TIMEOUT_MS", "5000");
    byte[] body =
        Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
    assertThat(post("/hello-world/sync", body).statusCode()).isEqualTo(200);
    assertCallInFlightDrained(body, true);
  }

  @Test
  void sigtermDuringTheWarmUpDrainsTheCallInFlightLikeAfterIt() throws Exception {
    launch(
        "METAHOOKS_WARM_UP_MS",
        "60000",
        "METAHOOKS_SHUTDOWN_DELAY_MS",
        "3000",
        "METAHOOKS_SHUTDOWN_TIMEOUT_MS",
        "5000");
    Poll.until("the hook port to listen while the warm-up runs", () -> status("/healthz") == 200);
    assertThat(status("/readyz")).as("warming up").isEqualTo(503);
    byte[] body =
        Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));
    assertCallInFlightDrained(body, false);
  }

  /**
   * Half a call's body, SIGTERM, the other half: the call is answered, then the process exits. {@code counted}:
   * the call is seen in flight first (the warm-up's own calls are in flight too, so the count says nothing then).
   */
  private void assertCallInFlightDrained(byte[] body, boolean counted) throws Exception {
    int half = body.length / 2;
    try (Socket socket = new Socket("localhost", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /hello-world/sync HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, half);
      out.flush();
      if (counted) {
        Poll.until(
            "the call to be in flight, its body half sent",
            () -> get("/metrics").contains("metahooks_hook_calls_active 1.0"));
      }

      process.destroy(); // SIGTERM
      long stopping = System.nanoTime();
      Poll.until("readiness to fail first", () -> status("/readyz") == 503);
      assertThat(status("/healthz")).as("the process still serves").isEqualTo(200);

      out.write(body, half, body.length - half);
      out.flush();
      InputStream in = socket.getInputStream();
      String reply = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(reply)
          .as(
              "the call in flight is answered; log: %s",
              Files.readString(dir.resolve("stderr.log")))
          .isEqualTo("HTTP/1.1 200");

      assertThat(process.waitFor(15, TimeUnit.SECONDS))
          .as("exits well within the grace period")
          .isTrue();
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - stopping)).isLessThan(15);
    }
    assertThat(logLines())
        .anySatisfy(line -> assertThat(line.path("message").asText()).startsWith("shutting down"));
  }

  @Test
  void oneJsonLogLinePerHookCallAndSecretsNeverLogged() throws Exception {
    start("METAHOOKS_LOG_BODIES", "true");
    String secret = "c3VwZXItc2VjcmV0LXBhc3N3b3Jk"; // base64 of super-secret-password
    String request =
        new String(
                Resources.bytes(
                    Resources.path("fixtures/hello-world/sync/01-first-sync.request.json")),
                StandardCharsets.UTF_8)
            .replaceFirst(
                "\"related\" *: *\\{ *}",
                "\"related\": {\"Secret.v1\": {\"creds\": {\"apiVersion\": \"v1\","
                    + " \"kind\": \"Secret\", \"metadata\": {\"name\": \"creds\", \"namespace\": \"hello\"},"
                    + " \"data\": {\"password\": \""
                    + secret
                    + "\"}}}}");
    assertThat(request).contains(secret);
    assertThat(post("/hello-world/sync", request.getBytes(StandardCharsets.UTF_8)).statusCode())
        .isEqualTo(200);
    process.destroy();
    process.waitFor(15, TimeUnit.SECONDS);

    String log = Files.readString(dir.resolve("stderr.log"));
    assertThat(log).doesNotContain(secret, "super-secret-password").contains("<redacted>");
    JsonNode call =
        logLines().stream()
            .filter(l -> l.path("message").asText().equals("hook call"))
            .findFirst()
            .orElseThrow();
    assertThat(call.path("controller").asText()).isEqualTo("hello-world");
    assertThat(call.path("hook").asText()).isEqualTo("sync");
    assertThat(call.path("hookVersion").asText()).isEqualTo("v1");
    assertThat(call.path("kind").asText()).isEqualTo("HelloWorld");
    assertThat(call.path("namespace").asText()).isEqualTo("hello");
    assertThat(call.path("name").asText()).isEqualTo("your-name");
    assertThat(call.path("generation").asLong()).isEqualTo(1);
    assertThat(call.path("status").asInt()).isEqualTo(200);
    assertThat(call.path("outcome").asText()).isEqualTo("ok");
    assertThat(call.path("children").asInt()).isEqualTo(1);
    assertThat(call.path("durationMs").isNumber()).isTrue();
    assertThat(call.path("level").asText()).isEqualTo("INFO");
  }

  @Test
  void aPostgresPasswordInALastAppliedAnnotationIsNeverLogged() throws Exception {
    start("METAHOOKS_LOG_BODIES", "true");
    byte[] request =
        Resources.bytes(Resources.path("fixtures/postgrescluster/sync/03-dev-ready.request.json"));
    String password = "UlYwU2UxNVk3Ulo0Y3p2VFN4VUhMNVpOVng0R2dNNEk="; // the superuser's, base64
    String decoded =
        new String(java.util.Base64.getDecoder().decode(password), StandardCharsets.UTF_8);
    // The observed Secret carries it in data and again in Metacontroller's last-applied annotation.
    JsonNode secret =
        java.util.stream.StreamSupport.stream(
                JsonTrees.MAPPER.readTree(request).path("children").path("Secret.v1").spliterator(),
                false)
            .filter(s -> s.path("metadata").path("name").asText().equals("pg-dev-superuser"))
            .findFirst()
            .orElseThrow();
    assertThat(secret.path("data").path("password").asText()).isEqualTo(password);
    assertThat(
            secret
                .path("metadata")
                .path("annotations")
                .path("metacontroller.k8s.io/last-applied-configuration")
                .asText())
        .contains(password);
    HttpResponse<String> reply = post("/postgrescluster/sync", request);
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.body()).as("the answer itself keeps the password").contains(password);

    JsonNode bodies =
        stopAndReadLog().stream()
            .filter(l -> l.path("message").asText().equals("hook bodies"))
            .findFirst()
            .orElseThrow();
    assertThat(bodies.path("request").asText()).contains("<redacted>");
    assertThat(Files.readString(dir.resolve("stderr.log"))).doesNotContain(password, decoded);
  }

  @Test
  void debugShowsTheServersDecisionsAndKeepsJettysInternalsOut() throws Exception {
    start("METAHOOKS_LOG_LEVEL", "debug", "METAHOOKS_LOG_BODIES", "true");
    byte[] request =
        Resources.bytes(Resources.path("fixtures/postgrescluster/sync/03-dev-ready.request.json"));
    for (int i = 0; i < 2; i++) { // the second is a cache hit
      assertThat(post("/postgrescluster/sync", request).statusCode()).isEqualTo(200);
    }
    List<JsonNode> lines = stopAndReadLog();
    List<String> decisions =
        lines.stream()
            .filter(l -> l.path("level").asText().equals("DEBUG"))
            .map(l -> l.path("message").asText())
            .toList();
    assertThat(decisions)
        .contains(
            "routed to the hook",
            "admitted to a hook slot",
            "not in the response cache: the hook runs",
            "answered from the response cache",
            "Secret values redacted");
    assertThat(lines)
        .allSatisfy(
            line ->
                assertThat(line.path("logger").asText())
                    .as("debug of Jetty and Javalin needs METAHOOKS_LIBRARY_LOG_LEVEL")
                    .startsWith("dev.metahooks."));

    start("METAHOOKS_LIBRARY_LOG_LEVEL", "debug");
    assertThat(stopAndReadLog())
        .anySatisfy(
            line -> {
              assertThat(line.path("logger").asText()).startsWith("org.eclipse.jetty");
              assertThat(line.path("level").asText()).isEqualTo("DEBUG");
            })
        .noneSatisfy(
            line -> {
              assertThat(line.path("logger").asText()).startsWith("dev.metahooks");
              assertThat(line.path("level").asText()).isEqualTo("DEBUG");
            });
  }

  @Test
  void aRotationToAKeyOfAnotherCertificateIsRefusedAndThePreviousPairStays() throws Exception {
    SecurityIT.Certificates certs = new SecurityIT.Certificates(dir);
    int management;
    try (ServerSocket socket = new ServerSocket(0)) {
      management = socket.getLocalPort();
    }
    start(
        "METAHOOKS_TLS_CERT_FILE",
        certs.serverCert.toString(),
        "METAHOOKS_TLS_KEY_FILE",
        certs.serverKey.toString(),
        "METAHOOKS_MANAGEMENT_PORT",
        String.valueOf(management),
        "METAHOOKS_FILE_CHECK_INTERVAL_MS",
        "100");
    String hook = "https://localhost:" + port + "/hello-world/sync";
    String before = SecurityIT.peerSerial(certs, hook);

    Path otherKey = dir.resolve("other.key");
    certs.issue(
        "other",
        otherKey,
        dir.resolve("other.crt"),
        "/CN=localhost",
        "subjectAltName=DNS:localhost");
    Files.move(otherKey, certs.serverKey, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Poll.until(
        "a warning that the rotation was refused",
        () ->
            logLines().stream()
                .anyMatch(
                    line ->
                        line.path("level").asText().equals("WARN")
                            && line.path("error").asText().contains("does not belong")));
    assertThat(SecurityIT.peerSerial(certs, hook))
        .as("the previous pair still serves")
        .isEqualTo(before);

    certs.renewServer(); // a rotation that matches is taken
    Poll.until("the renewed certificate", () -> !SecurityIT.peerSerial(certs, hook).equals(before));
  }

  /** Runs the process with {@code env}; it must stop at once with code 2 and one line that names the problem. */
  private void assertRefusedAtStart(String expected, String... env) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.metahooks.Main")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("refused.log").toFile());
    builder.environment().put("METAHOOKS_PORT", "0");
    builder.environment().put("METAHOOKS_LOG_LEVEL", "info");
    builder
        .environment()
        .put("METAHOOKS_WARM_UP_MS", "0"); // ready at once: WarmUpTest covers the warm-up
    for (int i = 0; i < env.length; i += 2) {
      builder.environment().put(env[i], env[i + 1]);
    }
    Process refused = builder.start();
    assertThat(refused.waitFor(30, TimeUnit.SECONDS)).as("stops at once").isTrue();
    List<String> output = Files.readAllLines(dir.resolve("refused.log"));
    assertThat(refused.exitValue()).as("exit code, output %s", output).isEqualTo(2);
    assertThat(output).as("one line, no stack trace").hasSize(1);
    assertThat(output.get(0)).startsWith("metahooks: ").contains(expected);
  }

  @Test
  void aBadValueStopsTheProcessWithOneLineAndExitCode2() throws Exception {
    assertRefusedAtStart("METAHOOKS_PORT must be a whole number", "METAHOOKS_PORT", "eighty");
    assertRefusedAtStart(
        "METAHOOKS_PORT must be 0..65535, got 4294967376", "METAHOOKS_PORT", "4294967376");
    assertRefusedAtStart(
        "METAHOOKS_HOOK_DEADLINE_MS must be below 10000", "METAHOOKS_HOOK_DEADLINE_MS", "12000");
    assertRefusedAtStart("METAHOOKS_LOG_LEVEL must be one of", "METAHOOKS_LOG_LEVEL", "verbose");
    assertRefusedAtStart(
        "METAHOOKS_LOG_BODIES must be true or false", "METAHOOKS_LOG_BODIES", "on");
  }

  @Test
  void aFileThatCannotBeUsedStopsTheProcessWithOneLineAndExitCode2() throws Exception {
    assertRefusedAtStart(
        "METAHOOKS_TOKEN_FILE: " + dir.resolve("missing") + " does not exist",
        "METAHOOKS_TOKEN_FILE",
        dir.resolve("missing").toString());
    Path empty = Files.writeString(dir.resolve("empty-token"), "\n");
    assertRefusedAtStart(
        "METAHOOKS_TOKEN_FILE: " + empty + " is empty", "METAHOOKS_TOKEN_FILE", empty.toString());
    SecurityIT.Certificates certs = new SecurityIT.Certificates(dir);
    assertRefusedAtStart(
        "does not belong to the certificate",
        "METAHOOKS_TLS_CERT_FILE",
        certs.serverCert.toString(),
        "METAHOOKS_TLS_KEY_FILE",
        certs.clientKey.toString());
  }

  @Test
  void aPortInUseStopsTheProcessWithOneLineAndExitCode2() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      assertRefusedAtStart(
          "cannot listen on port " + taken.getLocalPort() + " (METAHOOKS_PORT)",
          "METAHOOKS_PORT",
          String.valueOf(taken.getLocalPort()));
    }
  }

  @Test
  void anUnknownSettingIsAWarningNotAnError() throws Exception {
    start("METAHOOKS_LOG_BODYS", "true");
    assertThat(stopAndReadLog())
        .anySatisfy(
            line -> {
              assertThat(line.path("level").asText()).isEqualTo("WARN");
              assertThat(line.path("variable").asText()).isEqualTo("METAHOOKS_LOG_BODYS");
            });
  }
}

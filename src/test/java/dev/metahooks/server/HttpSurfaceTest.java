package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.HostileBodies;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.TestServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP surface on a real port: every class of bad input gets its status and a JSON error naming it. */
class HttpSurfaceTest {
  private static final String SYNC = "/hello-world/sync";
  private static final byte[] VALID =
      Resources.bytes(Resources.path("fixtures/hello-world/sync/01-first-sync.request.json"));

  private static HookServer faulty;

  @BeforeAll
  static void startFaultyServer() {
    Controller throwing =
        Controller.composite("faulty")
            .sync(
                request -> {
                  throw new IllegalStateException(
                      "secret-token-123 leaked into an exception message");
                })
            .build();
    Controller unserialisable =
        Controller.composite("unserialisable")
            .sync(
                request ->
                    CompositeResponse.of(null, List.of(Json.object().putPOJO("x", new Object()))))
            .build();
    // 200 children of about 100 bytes, built without an estimate: only the bounded writer stops it.
    Controller unbounded =
        Controller.composite("unbounded")
            .sync(
                request ->
                    CompositeResponse.of(
                        null,
                        IntStream.range(0, 200)
                            .mapToObj(
                                i ->
                                    Json.object()
                                        .put("kind", "ConfigMap")
                                        .put("data", "x".repeat(100)))
                            .toList()))
            .build();
    faulty =
        new HookServer(
                ServerConfig.defaults()
                    .withPort(0)
                    .withMaxBodyBytes(1024)
                    .withMemory(1024, 8 * 1024),
                List.of(throwing, unserialisable, unbounded))
            .start();
  }

  @AfterAll
  static void stopFaultyServer() {
    faulty.close();
  }

  static Stream<Arguments> badBodies() {
    return Stream.of(
        Arguments.of("malformed", "{\"parent\": }", 400, "malformed JSON at line 1, column 12"),
        Arguments.of(
            "truncated",
            "{\"parent\": {\"metadata\": {\"name\": \"x\"",
            400,
            "malformed JSON at line 1"),
        Arguments.of("empty", "", 400, "empty request body"),
        Arguments.of("array", "[1, 2]", 400, "must be a JSON object, not array"),
        Arguments.of("string", "\"hello\"", 400, "must be a JSON object, not string"),
        Arguments.of("trailing garbage", "{} {}", 400, "malformed JSON"),
        Arguments.of(
            "duplicate key", "{\"parent\": {}, \"parent\": {}}", 400, "Duplicate field 'parent'"),
        Arguments.of("too deep", "[".repeat(500) + "]".repeat(500), 400, "exceeds a parser limit"),
        Arguments.of(
            "huge number", "{\"n\": " + "9".repeat(500) + "}", 400, "exceeds a parser limit"),
        Arguments.of("no parent", "{\"children\": {}}", 422, "parent: is required"),
        Arguments.of(
            "parent an array", "{\"parent\": []}", 422, "parent: must be an object, not an array"),
        Arguments.of(
            "parent without metadata", "{\"parent\": {}}", 422, "parent.metadata: is required"),
        Arguments.of(
            "parent without name",
            "{\"parent\": {\"metadata\": {}}}",
            422,
            "parent.metadata.name: is required"),
        Arguments.of(
            "name not a string",
            "{\"parent\": {\"metadata\": {\"name\": 7}}}",
            422,
            "parent.metadata.name: must be a non-empty string"),
        Arguments.of(
            "children a list",
            parent("\"children\": []"),
            422,
            "children: must be an object, not an array"),
        Arguments.of(
            "group a list",
            parent("\"children\": {\"Pod.v1\": []}"),
            422,
            "children['Pod.v1']: must be an object, not an array"),
        Arguments.of(
            "child without metadata",
            parent("\"children\": {\"Pod.v1\": {\"p\": {\"kind\": \"Pod\"}}}"),
            422,
            "children['Pod.v1']['p'].metadata: is required"),
        Arguments.of(
            "v2 key in a v1 request",
            parent(
                "\"children\": {\"Pod.v1\": {\"ns/p\": {\"metadata\": {\"name\": \"p\", \"namespace\": \"other\"}}}}"),
            422,
            "key does not match hook version v1"),
        Arguments.of(
            "declared group missing",
            parent("\"children\": {}"),
            422,
            "children['Pod.v1']: is missing"),
        Arguments.of(
            "finalizing not a boolean",
            parent("\"children\": {\"Pod.v1\": {}}, \"finalizing\": \"yes\""),
            422,
            "finalizing: must be a boolean"),
        Arguments.of(
            "unknown hook version",
            "{\"controller\": {\"spec\": {\"hooks\": {\"sync\": {\"version\": \"v3\"}}}}, "
                + "\"parent\": {\"metadata\": {\"name\": \"x\"}}}",
            422,
            "unknown hook version \"v3\""));
  }

  private static String parent(String rest) {
    return "{\"parent\": {\"metadata\": {\"name\": \"x\", \"namespace\": \"ns\"}}, " + rest + "}";
  }

  @ParameterizedTest(name = "{0} -> {2}")
  @MethodSource("badBodies")
  void badInputGetsAClearJsonError(String label, String body, int status, String message) {
    TestServer.Reply reply = TestServer.post(SYNC, body.getBytes(StandardCharsets.UTF_8));
    assertThat(reply.status()).as(reply.body()).isEqualTo(status);
    assertThat(reply.contentType()).startsWith("application/json");
    assertThat(reply.json().path("message").asText()).contains(message);
    assertThat(reply.json().path("error").asText()).isNotBlank();
    assertThat(reply.body()).doesNotContain("at dev.metahooks", "Exception");
  }

  @Test
  void invalidRequestsNameTheField() {
    TestServer.Reply reply = TestServer.post(SYNC, "{\"parent\": {\"metadata\": {}}}".getBytes());
    assertThat(reply.json().path("field").asText()).isEqualTo("parent.metadata.name");
    assertThat(reply.json().path("error").asText()).isEqualTo("invalid_request");
  }

  @Test
  void unknownControllerAndHookAre404() {
    TestServer.Reply controller = TestServer.post("/no-such-controller/sync", VALID);
    assertThat(controller.status()).isEqualTo(404);
    assertThat(controller.json().path("message").asText())
        .contains("no controller named 'no-such-controller'");
    TestServer.Reply hook = TestServer.post("/hello-world/finalize", VALID);
    assertThat(hook.status()).isEqualTo(404);
    assertThat(hook.json().path("message").asText())
        .contains("has no 'finalize' hook")
        .contains("sync");
    TestServer.Reply other =
        TestServer.send(HttpRequest.newBuilder(TestServer.uri("/a/b/c")).GET().build());
    assertThat(other.status()).isEqualTo(404);
    assertThat(other.json().path("error").asText()).isEqualTo("not_found");
  }

  @Test
  void wrongMethodIs405() {
    TestServer.Reply reply =
        TestServer.send(HttpRequest.newBuilder(TestServer.uri(SYNC)).GET().build());
    assertThat(reply.status()).isEqualTo(405);
    assertThat(reply.json().path("error").asText()).isEqualTo("method_not_allowed");
    TestServer.Reply put =
        TestServer.send(
            HttpRequest.newBuilder(TestServer.uri(SYNC))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(VALID))
                .build());
    assertThat(put.status()).isEqualTo(405);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"HEAD", "OPTIONS", "TRACE"})
  void headOptionsAndTraceOnAHookAre405WithAllowPost(String method) throws IOException {
    String reply =
        raw(
            TestServer.port(),
            method + " " + SYNC + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assertThat(reply)
        .startsWith("HTTP/1.1 405")
        .contains("Allow: POST")
        .contains("Content-Type: application/json");
    if (!method.equals("HEAD")) { // a HEAD answer has no body
      assertThat(body(reply).path("error").asText()).isEqualTo("method_not_allowed");
    }
  }

  static Stream<Arguments> protocolErrors() {
    return Stream.of(
        Arguments.of("a request line that is not HTTP", "GARBAGE\r\n\r\n", 400, "bad_request"),
        Arguments.of(
            "a header block over Jetty's limit",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(70_000) + "\r\n\r\n",
            431,
            "request_header_fields_too_large"),
        Arguments.of(
            "a URI over Jetty's limit",
            "GET /" + "a".repeat(70_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
            414,
            "uri_too_long"),
        Arguments.of(
            "a Content-Length that is not a number",
            "POST " + SYNC + " HTTP/1.1\r\nHost: x\r\n" + "Content-Length: abc\r\n\r\n{}",
            400,
            "bad_request"),
        Arguments.of(
            "a Content-Length beyond 2^63",
            "POST "
                + SYNC
                + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Length: 99999999999999999999999\r\n\r\n{}",
            400,
            "bad_request"),
        Arguments.of(
            "two Content-Lengths",
            "POST "
                + SYNC
                + " HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                + "Content-Length: 3\r\n\r\n{}",
            400,
            "bad_request"),
        Arguments.of("HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n", 400, "bad_request"),
        Arguments.of(
            "an ambiguous path",
            "GET /a/..;/healthz HTTP/1.1\r\nHost: x\r\n\r\n",
            400,
            "bad_request"),
        Arguments.of(
            "an unknown HTTP version",
            "GET /healthz HTTP/3.7\r\nHost: x\r\n\r\n",
            505,
            "http_version_not_supported"),
        // HTTP/2 with prior knowledge (h2c): Metacontroller speaks HTTP/1.1; the server says so in
        // JSON.
        Arguments.of(
            "an HTTP/2 prior-knowledge preface",
            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            426,
            "upgrade_required"));
  }

  @ParameterizedTest(name = "{0} -> {2}")
  @MethodSource("protocolErrors")
  void jettysOwnErrorsAreTheProjectsJson(String label, String request, int status, String code)
      throws IOException {
    String reply = raw(TestServer.port(), request);
    assertThat(reply).startsWith("HTTP/1.1 " + status).contains("Content-Type: application/json");
    assertThat(body(reply).path("error").asText()).isEqualTo(code);
    assertThat(body(reply).path("message").asText()).isNotBlank();
  }

  @ParameterizedTest(name = "Content-Length {0}")
  @ValueSource(longs = {1025, 2_147_483_649L, 1L << 40})
  void aContentLengthOverTheLimitIs413AtOnceWithoutTheBody(long length) throws IOException {
    // Only the headers are sent: the answer must not wait for a body (nor for the deadline).
    String reply =
        raw(
            faulty.port(),
            "POST /faulty/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: "
                + length
                + "\r\n\r\n");
    assertThat(reply).startsWith("HTTP/1.1 413").contains("Connection: close");
    assertThat(body(reply).path("message").asText()).contains("1024 bytes");
  }

  @Test
  void bodiesOfNothingButStructureAre413WithinTheSizeLimit() {
    for (byte[] body :
        List.of(HostileBodies.emptyArrays(1_000_000), HostileBodies.nests(20_000, 190))) {
      TestServer.Reply reply = TestServer.post(SYNC, body);
      assertThat(reply.status()).as(reply.body()).isEqualTo(413);
      assertThat(reply.json().path("message").asText())
          .contains("too many objects, arrays or values");
    }
  }

  @Test
  void anAnswerOverTheResponseLimitIs422WhileWrittenNeverAPartial200() {
    TestServer.Reply reply =
        TestServer.send(
            HttpRequest.newBuilder(uri(faulty, "/unbounded/sync"))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"parent\": {\"metadata\": {\"name\": \"x\"}}}"))
                .build());
    assertThat(reply.status()).as(reply.body()).isEqualTo(422);
    assertThat(reply.json().path("field").asText()).isEqualTo("children");
    assertThat(reply.json().path("message").asText())
        .contains("8192 bytes (METAHOOKS_MAX_RESPONSE_BYTES)", "stopped at children[");
  }

  @Test
  void wrongContentTypeIs415() {
    TestServer.Reply reply =
        TestServer.send(
            HttpRequest.newBuilder(TestServer.uri(SYNC))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofByteArray(VALID))
                .build());
    assertThat(reply.status()).isEqualTo(415);
    assertThat(reply.json().path("message").asText()).contains("application/json");
  }

  @Test
  void jsonWithCharsetIsAccepted() {
    TestServer.Reply reply =
        TestServer.send(
            HttpRequest.newBuilder(TestServer.uri(SYNC))
                .header("Content-Type", "application/json; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofByteArray(VALID))
                .build());
    assertThat(reply.status()).isEqualTo(200);
  }

  @Test
  void largeBodiesWithinTheDefaultLimitAreServed() {
    // Javalin's own default limit is 1,000,000 bytes; Metacontroller sends far more for big
    // parents.
    String padding = "x".repeat(3 * 1024 * 1024);
    String body =
        new String(VALID, StandardCharsets.UTF_8)
            .replaceFirst("\\{", "{\"padding\": \"" + padding + "\",");
    TestServer.Reply reply = TestServer.post(SYNC, body.getBytes(StandardCharsets.UTF_8));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
  }

  @Test
  void bodiesOverTheLimitAre413WithOrWithoutContentLength() {
    byte[] big =
        ("{\"parent\": {\"metadata\": {\"name\": \"" + "x".repeat(4096) + "\"}}}").getBytes();
    TestServer.Reply declared =
        TestServer.send(
            HttpRequest.newBuilder(uri(faulty, "/faulty/sync"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(big))
                .build());
    assertThat(declared.status()).isEqualTo(413);
    assertThat(declared.json().path("message").asText()).contains("1024 bytes");
    // A chunked body has no Content-Length: the limit is enforced while streaming.
    TestServer.Reply chunked =
        TestServer.send(
            HttpRequest.newBuilder(uri(faulty, "/faulty/sync"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))
                .build());
    assertThat(chunked.status()).isEqualTo(413);
  }

  @Test
  void aFaultInAControllerIs500WithoutDetails() {
    TestServer.Reply reply =
        TestServer.send(
            HttpRequest.newBuilder(uri(faulty, "/faulty/sync"))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"parent\": {\"metadata\": {\"name\": \"x\"}}}"))
                .build());
    assertThat(reply.status()).isEqualTo(500);
    JsonNode body = reply.json();
    assertThat(body.path("error").asText()).isEqualTo("internal_error");
    assertThat(body.path("message").asText()).contains("faulty sync hook failed");
    assertThat(reply.body()).doesNotContain("secret-token-123", "IllegalStateException", "at dev.");
  }

  @Test
  void anUnwritableResponseIs500NotAPartial200() {
    TestServer.Reply reply =
        TestServer.send(
            HttpRequest.newBuilder(uri(faulty, "/unserialisable/sync"))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"parent\": {\"metadata\": {\"name\": \"x\"}}}"))
                .build());
    assertThat(reply.status()).isEqualTo(500);
    assertThat(reply.json().path("error").asText()).isEqualTo("internal_error");
  }

  @Test
  void healthReadinessAndMetrics() {
    TestServer.post(SYNC, VALID);
    TestServer.post(SYNC, "[]".getBytes());
    assertThat(get("/healthz").status()).isEqualTo(200);
    assertThat(get("/readyz").json().path("status").asText()).isEqualTo("ready");
    TestServer.Reply metrics = get("/metrics");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.contentType()).startsWith("text/plain");
    assertThat(metrics.body())
        .containsPattern(
            "metahooks_hook_requests_total\\{controller=\"hello-world\",hook=\"sync\",outcome=\"ok\"} [1-9]")
        .containsPattern(
            "metahooks_hook_requests_total\\{controller=\"hello-world\",hook=\"sync\",outcome=\"bad_request\"} [1-9]")
        .contains("metahooks_hook_duration_seconds_bucket{controller=\"hello-world\",hook=\"sync\"")
        .contains("jvm_memory_used_bytes")
        .contains("process_uptime_seconds");
  }

  @Test
  void unknownPathsDoNotCreateMetricSeries() {
    TestServer.post("/scanner-" + System.nanoTime() + "/sync", VALID);
    assertThat(get("/metrics").body())
        .doesNotContain("scanner-")
        .contains("controller=\"unknown\",hook=\"unknown\",outcome=\"not_found\"");
  }

  /** Sends raw bytes (what an HTTP client would refuse to send) and reads the whole answer. */
  static String raw(int port, String request) throws IOException {
    try (Socket socket = new Socket("localhost", port)) {
      socket.setSoTimeout(5000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) > 0; ) {
          answer.write(buffer, 0, n);
          if (complete(answer.toString(StandardCharsets.ISO_8859_1))) {
            break;
          }
        }
      } catch (SocketTimeoutException e) {
        // the server kept the connection open: what came is the answer
      }
      return answer.toString(StandardCharsets.ISO_8859_1);
    }
  }

  /** Headers and as many body bytes as Content-Length says. */
  private static boolean complete(String answer) {
    int end = answer.indexOf("\r\n\r\n");
    java.util.regex.Matcher length =
        java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(answer);
    return end >= 0
        && length.find()
        && length.start() < end
        && answer.length() - end - 4 >= Integer.parseInt(length.group(1));
  }

  static JsonNode body(String answer) throws IOException {
    return JsonTrees.MAPPER.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
  }

  private static TestServer.Reply get(String path) {
    return TestServer.send(HttpRequest.newBuilder(TestServer.uri(path)).GET().build());
  }

  private static URI uri(HookServer server, String path) {
    return URI.create("http://localhost:" + server.port() + path);
  }
}

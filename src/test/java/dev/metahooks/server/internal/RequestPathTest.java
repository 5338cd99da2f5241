package dev.metahooks.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.HookResponse;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The request path's shape: the route is resolved once, where a call comes in, and passed down; an answer is the
 * controller's {@link HookResponse} and then the written {@link Reply}, nothing in between; each layer throws
 * {@link HookError} and maps what it throws once.
 */
class RequestPathTest {
  private static final Path SERVER_SOURCES =
      Resources.projectDir().resolve("library/src/main/java/dev/metahooks/server");
  private static final Path CLASSES = Resources.projectDir().resolve("library/target/classes");
  private static final Path SERVER_CLASSES = CLASSES.resolve("dev/metahooks/server");
  private static final String HELLO =
      "{\"parent\": {\"kind\": \"HelloWorld\", \"metadata\": {\"name\": \"x\"}, "
          + "\"spec\": {\"who\": \"you\"}}, \"children\": {\"Pod.v1\": {}}}";

  @Test
  void everyRouteIsBuiltWithTheTableAndALookupGivesItBack() {
    RouteTable table = new RouteTable(Catalog.controllers(), false);
    Route sync = table.find("hello-world", "sync");
    assertThat(sync.controllerName()).isEqualTo("hello-world");
    assertThat(sync.hookPath()).isEqualTo("sync");
    assertThat(table.find("hello-world", "sync")).isSameAs(sync);
    assertThat(table.find("hello-world", "finalize")).isNull();
    assertThatThrownBy(() -> table.route("no-such", "sync"))
        .isInstanceOf(HookError.class)
        .hasMessageStartingWith("no controller named 'no-such'; served: ")
        .satisfies(e -> assertThat(((HookError) e).status()).isEqualTo(404));
    assertThatThrownBy(() -> table.route("hello-world", "finalize"))
        .hasMessage("controller 'hello-world' has no 'finalize' hook; it serves: sync");
  }

  @Test
  void noLayerBelowTheEdgeLooksTheRouteUpAgain() throws IOException {
    Pattern lookup =
        Pattern.compile("routes(\\(\\))?\\s*\\.(find|route)\\(|Hook\\s*\\.fromPath\\(");
    List<String> looking = new ArrayList<>();
    // the public package and its internal one
    try (Stream<Path> files = Files.walk(SERVER_SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        if (lookup.matcher(Files.readString(file)).find()) {
          looking.add(file.getFileName().toString());
        }
      }
    }
    // the HTTP edge (a hook call, a wrong method) and the in-process one
    assertThat(looking).containsExactlyInAnyOrder("FrontDoor.java", "HookServer.java");
  }

  @Test
  void anAnswerIsTheHooksResponseThenTheWrittenReplyAndNothingInBetween() throws Exception {
    for (String gone :
        List.of("HookDispatcher", "HookDispatcher$Answer", "AnswerWriter$Written", "Exchange")) {
      for (String pkg : List.of("dev.metahooks.server.", "dev.metahooks.server.internal.")) {
        assertThatThrownBy(() -> Class.forName(pkg + gone))
            .as(pkg + gone)
            .isInstanceOf(ClassNotFoundException.class);
      }
    }
    List<String> holdingAnAnswer = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SERVER_CLASSES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
        String name = file.getFileName().toString().replace(".class", "");
        Class<?> type =
            Class.forName(
                CLASSES.relativize(file).toString().replace(".class", "").replace('/', '.'));
        for (RecordComponent component :
            type.isRecord() ? type.getRecordComponents() : new RecordComponent[0]) {
          if (HookResponse.class.isAssignableFrom(component.getType())
              || component.getType() == Blocks.class) {
            holdingAnAnswer.add(name + "." + component.getName());
          }
        }
      }
    }
    assertThat(holdingAnAnswer).containsExactly("Reply.body");
  }

  @Test
  void theRunnerThrowsWhatIsWrongAsAHookErrorAndLogsOnlyFaults() {
    HookRunner runner = new HookRunner(1_000_000);
    Route hello = new RouteTable(Catalog.controllers(), false).find("hello-world", "sync");
    assertThat(error(() -> runner.read(hello, bytes("{\"parent\": "))).status()).isEqualTo(400);
    assertThat(error(() -> runner.read(hello, bytes("[]"))))
        .hasMessage("request body must be a JSON object, not array");
    ObjectNode badName = runner.read(hello, bytes(HELLO.replace("\"x\"", "\"a\\u0000b\"")));
    assertThat(error(() -> runner.run(hello, badName)).status()).isEqualTo(422);
    assertThat(runner.run(hello, runner.read(hello, bytes(HELLO)))).isNotNull();

    Controller refusing =
        Controller.composite("refusing")
            .sync(
                request -> {
                  throw new InvalidRequestException("spec.size", "spec.size must be positive");
                })
            .build();
    Route refused = new RouteTable(List.of(refusing), false).find("refusing", "sync");
    HookError invalid = error(() -> runner.run(refused, runner.read(refused, bytes(HELLO))));
    assertThat(invalid.status()).isEqualTo(422);
    assertThat(invalid.field()).isEqualTo("spec.size");

    Controller faulty =
        Controller.composite("faulty")
            .sync(
                request -> {
                  throw new IllegalStateException("a bug");
                })
            .build();
    Route fault = new RouteTable(List.of(faulty), false).find("faulty", "sync");
    HookError internal = error(() -> runner.run(fault, runner.read(fault, bytes(HELLO))));
    assertThat(internal.code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
    assertThat(internal).hasMessage("the faulty sync hook failed; the server log has the details");
  }

  @Test
  void theAnswersLayerMapsWhatItsStepsThrowOnceIntoAReply() {
    Controller faulty =
        Controller.composite("faulty")
            .sync(
                request -> {
                  throw new IllegalStateException("a bug");
                })
            .build();
    CachedAnswers answers = new CachedAnswers(1 << 20, 1_000_000);
    Route fault = new RouteTable(List.of(faulty), false).find("faulty", "sync");
    Reply reply = answers.answer(fault, bytes(HELLO));
    assertThat(reply.status()).isEqualTo(500);
    assertThat(reply.summary().kind())
        .as("the request was read: the access log names the parent")
        .isEqualTo("HelloWorld");
    assertThat(reply.etag()).isNull();
    assertThat(answers.answer(fault, bytes("{")).status()).isEqualTo(400);
    Reply badName = answers.answer(fault, bytes(HELLO.replace("\"x\"", "\"a\\u0000b\"")));
    assertThat(badName.status()).isEqualTo(422);
    assertThat(badName.summary().kind())
        .as("a refused name still names the parent's kind in the log")
        .isEqualTo("HelloWorld");
    assertThat(answers.cacheBytes()).as("errors are not kept").isZero();
  }

  private static HookError error(Runnable call) {
    try {
      call.run();
    } catch (HookError e) {
      return e;
    }
    throw new AssertionError("no HookError thrown");
  }

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}

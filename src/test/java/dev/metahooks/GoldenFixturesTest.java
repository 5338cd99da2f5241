package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.cli.OfflineHook;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testing.HookAnswers;
import dev.metahooks.testing.ThirdPartyCrds;
import dev.metahooks.testing.Resources;
import dev.metahooks.testing.TestServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden fixtures: {@code fixtures/<controller>/<hook>/<case>.request.json} must be answered with
 * {@code <case>.response.json}, exactly (children in order), the same in-process, through the offline CLI and
 * over HTTP; and every child in the answer must pass the strict Kubernetes schema check. The same files are
 * the README's {@code curl} examples.
 *
 * <p>To write the expected answer of a new fixture, run with {@code -Dfixtures.update=true}, then read the
 * file it wrote before committing it: an answer is only golden once a person has checked it.
 */
class GoldenFixturesTest {
  static final Path FIXTURES = Resources.path("fixtures");
  private static final boolean UPDATE = Boolean.getBoolean("fixtures.update");

  @TestFactory
  Stream<DynamicNode> fixtures() {
    return Resources.find(FIXTURES, ".request.json").stream().map(request -> {
      Path relative = FIXTURES.relativize(request);
      String controller = relative.getName(0).toString();
      String hook = relative.getName(1).toString();
      String name = request.getFileName().toString().replace(".request.json", "");
      Path response = request.resolveSibling(name + ".response.json");
      byte[] body = Resources.bytes(request);
      return DynamicContainer.dynamicContainer(controller + "/" + hook + "/" + name, request.toUri(), Stream.of(
          DynamicTest.dynamicTest("in-process", () -> {
            HookAnswers.Answer answer = HookAnswers.call(controller, hook, body);
            assertThat(answer.status()).as("status, body %s", answer.body()).isEqualTo(200);
            if (UPDATE) {
              Files.writeString(response, Json.MAPPER.writerWithDefaultPrettyPrinter()
                  .writeValueAsString(answer.body()) + "\n");
            }
            assertThat(answer.body()).isEqualTo(Resources.readObject(response));
            for (JsonNode child : children(answer.body())) {
              ThirdPartyCrds.assertValid(child);
            }
          }),
          DynamicTest.dynamicTest("offline CLI", () -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = OfflineHook.run(new String[] {hook, controller}, new ByteArrayInputStream(body),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
                Catalog.controllers(FixedSources.INSTANCE));
            assertThat(exit).isZero();
            assertThat(Json.MAPPER.readTree(out.toByteArray())).isEqualTo(Resources.readObject(response));
          }),
          DynamicTest.dynamicTest("over HTTP", () -> {
            TestServer.Reply reply = TestServer.post("/" + controller + "/" + hook, body);
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(reply.contentType()).startsWith("application/json");
            assertThat(reply.json()).isEqualTo(Resources.readObject(response));
          })));
    });
  }

  static Iterable<JsonNode> children(JsonNode answer) {
    JsonNode list = answer.has("children") ? answer.get("children") : answer.path("attachments");
    return list.isArray() ? list : java.util.List.of();
  }

  /** Each controller documents itself with at least ten fixtures, for each hook it serves but customize. */
  @Test
  void everyControllerHasTenFixtures() {
    for (Controller controller : Catalog.controllers()) {
      long count = Resources.find(FIXTURES.resolve(controller.name()), ".request.json").size();
      assertThat(count).as("fixtures of %s", controller.name()).isGreaterThanOrEqualTo(10);
    }
  }
}

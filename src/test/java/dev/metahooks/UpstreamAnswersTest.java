package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.SameAnswer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every recorded answer of Metacontroller's own example hooks ({@code upstream-answers/cases.tsv}) must be
 * given by the metahooks controller that replaces it. Where the upstream hook crashed, the replacement must
 * answer 200 or a 4xx JSON error, never a 5xx.
 */
class UpstreamAnswersTest {
  private static final Path ROOT = Resources.path("upstream-answers");

  record Case(String example, String hook, String id, String upstreamStatus, String description) {
    Path request() {
      return ROOT.resolve(example).resolve(hook).resolve(id + ".request.json");
    }

    Path response() {
      return ROOT.resolve(example).resolve(hook).resolve(id + ".response.json");
    }

    boolean upstreamAnswered() {
      return upstreamStatus.equals("200");
    }
  }

  static List<Case> cases() throws IOException {
    try (Stream<String> lines = Files.lines(ROOT.resolve("cases.tsv"))) {
      return lines
          .skip(1)
          .filter(l -> !l.isBlank())
          .map(l -> l.split("\t", 5))
          .map(f -> new Case(f[0], f[1], f[2], f[3], f[4]))
          .toList();
    }
  }

  @Test
  void everyRecordedCaseHasItsFiles() throws IOException {
    for (Case c : cases()) {
      assertThat(c.request()).exists();
      if (c.upstreamAnswered()) {
        assertThat(c.response()).exists();
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> sameAnswerAsUpstream() throws IOException {
    return cases().stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.example() + "/" + c.hook() + "/" + c.id() + ": " + c.description(),
                    c.request().toUri(),
                    () -> {
                      assumeTrue(
                          HookAnswers.served(c.example(), c.hook()),
                          c.example() + "/" + c.hook() + " is not served yet");
                      HookAnswers.Answer answer =
                          HookAnswers.call(c.example(), c.hook(), Resources.bytes(c.request()));
                      if (c.upstreamAnswered()) {
                        assertThat(answer.status())
                            .as("status, body %s", answer.body())
                            .isEqualTo(200);
                        JsonNode expected = Resources.readObject(c.response());
                        assertThat(
                                SameAnswer.differences(
                                    expected, answer.body(), c.example().equals("catset")))
                            .isEmpty();
                      } else {
                        assertThat(answer.status())
                            .as("a crash upstream must be a 200 or a 4xx here: %s", answer.body())
                            .isIn(200, 400, 404, 409, 413, 415, 422);
                        if (answer.status() != 200) {
                          assertThat(answer.body().path("error").isTextual()).isTrue();
                          assertThat(answer.body().path("message").asText()).isNotBlank();
                        }
                      }
                    }));
  }
}

package dev.metahooks.fuzz;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Bodies that once made a hook fail, replayed: {@code regressions/<controller>/<hook>-<status>-<what>.request.json}
 * must get that status (never a 5xx), with an answer that passes {@link AnswerChecks}. The body is sent as it
 * is stored, so a file may hold JSON that is not well-formed on purpose.
 */
class RegressionsTest {
  private static final Path ROOT = Resources.path("regressions");
  private static final Pattern NAME =
      Pattern.compile("(sync|finalize|customize)-([0-9]{3})-.+\\.request\\.json");
  private static final FrontDoor FRONT_DOOR =
      FrontDoor.of(Catalog.controllers(FixedSources.INSTANCE));

  @TestFactory
  Stream<DynamicTest> everyRegressionGetsItsStatus() {
    return Resources.find(ROOT, ".request.json").stream()
        .map(
            file -> {
              String controller = ROOT.relativize(file).getName(0).toString();
              String name = file.getFileName().toString();
              return DynamicTest.dynamicTest(
                  controller + "/" + name,
                  file.toUri(),
                  () -> {
                    Matcher match = NAME.matcher(name);
                    assertThat(match.matches())
                        .as("%s is named <hook>-<status>-<what>.request.json", name)
                        .isTrue();
                    Reply answer =
                        FRONT_DOOR.call(controller, match.group(1), Resources.bytes(file));
                    assertThat(AnswerChecks.problems(answer)).isEmpty();
                    assertThat(answer.status())
                        .as("status, body %s", new String(answer.body().toByteArray(), UTF_8))
                        .isEqualTo(Integer.parseInt(match.group(2)));
                  });
            });
  }
}

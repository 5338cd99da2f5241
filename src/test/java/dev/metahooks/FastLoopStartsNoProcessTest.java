package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.Resources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The wall between the fast loop and the integration tests: a class Surefire runs ({@code mvn test}) starts no
 * process, so that it passes from a checkout anywhere and without PostgreSQL, kubectl or openssl. A class that
 * starts one is an {@code *IT}, run by failsafe in {@code mvn verify}.
 *
 * <p>Read from the test sources (comments and string literals left out): a class that starts a process names
 * {@code ProcessBuilder} or {@code Runtime.exec}; a class that names such a class starts one too, through it, and so
 * on. A few helpers start a process through some of their members only; for them only those members count.
 */
class FastLoopStartsNoProcessTest {
  private static final List<Path> SOURCES = List.of(Resources.projectDir().resolve("src/test/java"),
      Resources.projectDir().resolve("testing/src/main/java"));
  /** What starts a process itself. */
  private static final List<Pattern> STARTS_A_PROCESS = List.of(Pattern.compile("\\bProcessBuilder\\b"),
      Pattern.compile("\\bRuntime\\s*\\.\\s*getRuntime\\s*\\(\\s*\\)\\s*\\.\\s*exec\\b"));
  /** Helpers that start a process only through these members (the rest of each reads or parses). */
  private static final Map<String, Pattern> THROUGH_MEMBERS = Map.of(
      "KubeYaml", Pattern.compile("\\bKubeYaml\\s*\\.\\s*kustomize\\b"),
      "Manifests", Pattern.compile("\\bManifests\\s*\\.\\s*render\\b"),
      // Every TestCertificates comes from create(), which makes the directory openssl writes into.
      "TestCertificates", Pattern.compile("\\bTestCertificates\\s*\\.\\s*create\\b"));
  /** Surefire's default includes; failsafe's (IT*, *IT, *ITCase) are the integration tests. */
  private static final Pattern SUREFIRE = Pattern.compile("Test\\w*|\\w*Test|\\w*Tests|\\w*TestCase");
  private static final Pattern FAILSAFE = Pattern.compile("IT\\w*|\\w*IT|\\w*ITCase");
  private static final Pattern TEST_METHOD = Pattern.compile(
      "@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property|Example)\\b");
  private static final Pattern COMMENT_OR_STRING = Pattern.compile(
      "/\\*.*?\\*/|//[^\\n]*|\"\"\"(?s:.*?)\"\"\"|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'", Pattern.DOTALL);

  @Test
  void noClassOfTheFastLoopStartsAProcessOrUsesOneThatDoes() {
    List<Source> code = code();
    Map<String, Pattern> starters = starters(code);
    Set<String> violations = new TreeSet<>();
    code.forEach(source -> {
      String name = source.name();
      String text = source.text();
      if (SUREFIRE.matcher(name).matches() && !FAILSAFE.matcher(name).matches()
          && TEST_METHOD.matcher(text).find()) {
        STARTS_A_PROCESS.stream().filter(p -> p.matcher(text).find()).forEach(p -> violations.add(name + ": " + p));
        starters.forEach((starter, use) -> {
          if (!starter.equals(name) && use.matcher(text).find()) {
            violations.add(name + " uses " + starter);
          }
        });
      }
    });
    assertThat(violations).as("classes run by mvn test that start a process: rename them *IT, or split them")
        .isEmpty();
  }

  @Test
  void theWallKnowsTheHelpersThatStartProcesses() {
    // Without this, a moved source directory would leave the rule above nothing to read and always true.
    assertThat(starters(code())).containsKeys("PostgresServer", "PatroniCluster", "S3Server", "LocalDaemon",
        "ChildServer", "Shellcheck", "ControlPlane", "KubeYaml", "Manifests", "TestCertificates", "RenderedContainers",
        "PatroniJobsIT");
  }

  /**
   * Every class that starts a process, directly or through another, with how a class that uses it names it: the
   * class's simple name, or for the helpers of {@link #THROUGH_MEMBERS} the members that start one.
   */
  private static Map<String, Pattern> starters(List<Source> code) {
    Map<String, Pattern> starters = new LinkedHashMap<>();
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Source source : code) {
        String name = source.name();
        String text = source.text();
        if (starters.containsKey(name)) {
          continue;
        }
        boolean starts = STARTS_A_PROCESS.stream().anyMatch(p -> p.matcher(text).find())
            || starters.entrySet().stream().anyMatch(s -> !s.getKey().equals(name) && s.getValue().matcher(text).find());
        if (starts) {
          starters.put(name, THROUGH_MEMBERS.getOrDefault(name, Pattern.compile("\\b" + name + "\\b")));
          grew = true;
        }
      }
    }
    return starters;
  }

  /** A source's class name and its text without comments and string literals. */
  private record Source(String name, String text) {}

  private static List<Source> code() {
    List<Source> code = new ArrayList<>();
    for (Path root : SOURCES) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
          String name = file.getFileName().toString().replaceFirst("\\.java$", "");
          code.add(new Source(name, COMMENT_OR_STRING.matcher(Files.readString(file)).replaceAll(" ")));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return code;
  }
}

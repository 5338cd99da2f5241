package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
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
  private static final List<Path> SOURCES =
      List.of(
          Resources.projectDir().resolve("src/test/java"),
          Resources.projectDir().resolve("testing/src/main/java"));

  /** What starts a process itself. */
  private static final List<Pattern> STARTS_A_PROCESS =
      List.of(
          Pattern.compile("\\bProcessBuilder\\b"),
          Pattern.compile("\\bRuntime\\s*\\.\\s*getRuntime\\s*\\(\\s*\\)\\s*\\.\\s*exec\\b"));

  /** Helpers that start a process only through this member (the rest of each reads or parses). */
  private static final Map<String, String> THROUGH_MEMBER =
      Map.of(
          "KubeYaml",
          "kustomize",
          "Manifests",
          "render",
          // Every TestCertificates comes from create(), which makes the directory openssl writes
          // into.
          "TestCertificates",
          "create");

  /** Surefire's default includes; failsafe's (IT*, *IT, *ITCase) are the integration tests. */
  private static final Pattern SUREFIRE =
      Pattern.compile("Test\\w*|\\w*Test|\\w*Tests|\\w*TestCase");

  private static final Pattern FAILSAFE = Pattern.compile("IT\\w*|\\w*IT|\\w*ITCase");
  private static final Pattern TEST_METHOD =
      Pattern.compile(
          "@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property|Example)\\b");

  /** Comments and string and character literals, which name what they like. */
  static final Pattern COMMENT_OR_STRING =
      Pattern.compile(
          "/\\*.*?\\*/|//[^\\n]*|\"\"\"(?s:.*?)\"\"\"|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'",
          Pattern.DOTALL);

  private static final Pattern WORD = Pattern.compile("\\b[A-Za-z_]\\w*\\b");
  private static final Pattern MEMBER = Pattern.compile("\\b([A-Z]\\w*)\\s*\\.\\s*(\\w+)\\b");

  /**
   * A source: its class name, whether it starts a process itself, whether it has tests, the names it uses and
   * its {@code Class.member} uses (comments and string literals left out).
   */
  private record Source(
      String name, boolean startsItself, boolean hasTests, Set<String> words, Set<String> members) {
    /** Whether Surefire runs it: a name of its includes, not of failsafe's, and tests in it. */
    boolean runBySurefire() {
      return SUREFIRE.matcher(name).matches() && !FAILSAFE.matcher(name).matches() && hasTests;
    }

    /** Whether this source uses {@code starter} in a way that starts a process. */
    boolean uses(String starter) {
      return !starter.equals(name)
          && (THROUGH_MEMBER.containsKey(starter)
              ? members.contains(starter + "." + THROUGH_MEMBER.get(starter))
              : words.contains(starter));
    }
  }

  @Test
  void noClassOfTheFastLoopStartsAProcessOrUsesOneThatDoes() {
    List<Source> code = code();
    Set<String> starters = starters(code);
    Set<String> violations = new TreeSet<>();
    for (Source source : code) {
      if (source.runBySurefire()) {
        if (source.startsItself()) {
          violations.add(source.name() + " starts a process");
        }
        starters.stream()
            .filter(source::uses)
            .forEach(starter -> violations.add(source.name() + " uses " + starter));
      }
    }
    assertThat(violations)
        .as("classes run by mvn test that start a process: rename them *IT, or split them")
        .isEmpty();
  }

  @Test
  void theWallKnowsTheHelpersThatStartProcesses() {
    // Without this, a moved source directory would leave the rule above nothing to read and always
    // true.
    assertThat(starters(code()))
        .contains(
            "PostgresServer",
            "PatroniCluster",
            "S3Server",
            "LocalDaemon",
            "ChildServer",
            "Shellcheck",
            "ControlPlane",
            "KubeYaml",
            "Manifests",
            "TestCertificates",
            "RenderedContainers",
            "PatroniJobsIT");
  }

  /** Every class that starts a process, itself or through another that does. */
  private static Set<String> starters(List<Source> code) {
    Set<String> starters = new TreeSet<>();
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Source source : code) {
        if (!starters.contains(source.name())
            && (source.startsItself() || starters.stream().anyMatch(source::uses))) {
          starters.add(source.name());
          grew = true;
        }
      }
    }
    return starters;
  }

  private static List<Source> code() {
    List<Source> code = new ArrayList<>();
    for (Path root : SOURCES) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
          String name = file.getFileName().toString().replaceFirst("\\.java$", "");
          String text = COMMENT_OR_STRING.matcher(Files.readString(file)).replaceAll(" ");
          Set<String> words = new HashSet<>();
          WORD.matcher(text).results().forEach(m -> words.add(m.group()));
          Set<String> members = new HashSet<>();
          MEMBER.matcher(text).results().forEach(m -> members.add(m.group(1) + "." + m.group(2)));
          boolean startsItself = STARTS_A_PROCESS.stream().anyMatch(p -> p.matcher(text).find());
          code.add(
              new Source(name, startsItself, TEST_METHOD.matcher(text).find(), words, members));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return code;
  }
}

package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout of the service's test tree ({@code src/test/java}). The testing kit ({@code testing/}) publishes its
 * packages in its jar; a class of the service's tests in one of them reads as part of the kit and could hide or
 * shadow a kit class of the same name. So a kit package holds only the tests of its kit classes, each named after
 * the class it tests ({@code CrdSchemaTest}, {@code ClusterInvalidOwnerTest}; a kit class's own name is no test's,
 * so none is shadowed); the service's own test helpers live in {@code dev.metahooks.testsupport}.
 *
 * <p>And one simulated world for scenarios: a {@code *ScenarioTest} or {@code *ScenarioIT} plays under the kit's
 * emulator ({@code dev.metahooks.emulator}, or {@code EmulatorExtension} around it), never on PostgresCluster's
 * builder of crafted requests ({@code ObservedRequests}) or a helper that hands one out; a test of the answers to
 * crafted requests is named for what it checks.
 */
class TestTreeLayoutTest {
  private static final Path KIT = Resources.projectDir().resolve("testing/src/main/java");
  private static final Path TESTS = Resources.projectDir().resolve("src/test/java");

  /** PostgresCluster's builder of crafted requests for tests of one hook call's answer. */
  private static final String REQUEST_BUILDER = "ObservedRequests";

  private static final Pattern SCENARIO = Pattern.compile("\\w+Scenario(Test|IT)");
  private static final Pattern EMULATOR =
      Pattern.compile("\\bdev\\.metahooks\\.emulator\\.|\\bEmulatorExtension\\b");

  /** A method other classes may call that returns the request builder. */
  private static final Pattern HANDS_OUT_THE_BUILDER =
      Pattern.compile(
          "(?m)^\\s+(?:public\\s+|protected\\s+)?(?:static\\s+)?"
              + REQUEST_BUILDER
              + "\\s+\\w+\\s*\\(");

  private static final Function<String, Pattern> WORD =
      name -> Pattern.compile("\\b" + Pattern.quote(name) + "\\b");

  @Test
  void aKitPackageInTheTestTreeHoldsOnlyTestsNamedAfterItsKitClasses() {
    Map<String, Set<String>> kit = classesByPackage(KIT);
    Map<String, Set<String>> tests = classesByPackage(TESTS);
    assertThat(kit).as("the kit's packages").containsKeys("dev.metahooks.testing");
    Set<String> misplaced = new TreeSet<>();
    int checked = 0;
    for (Map.Entry<String, Set<String>> pkg : tests.entrySet()) {
      Set<String> kitClasses = kit.get(pkg.getKey());
      if (kitClasses == null) {
        continue;
      }
      for (String name : pkg.getValue()) {
        checked++;
        if (!isTestOfOneOf(name, kitClasses)) {
          misplaced.add(pkg.getKey() + "." + name);
        }
      }
    }
    assertThat(checked).as("test classes in the kit's packages").isGreaterThan(10);
    assertThat(misplaced)
        .as("classes of the test tree in a kit package that test none of its classes")
        .isEmpty();
  }

  /** Whether {@code name} is a test ({@code *Test}, {@code *IT}) whose name starts with a class it may test. */
  private static boolean isTestOfOneOf(String name, Set<String> kitClasses) {
    String subject = name.replaceFirst("(Test|IT)$", "");
    if (subject.equals(name)) {
      return false;
    }
    return kitClasses.stream().anyMatch(subject::startsWith);
  }

  /** The top-level classes under {@code root} (one per file), by package. */
  private static Map<String, Set<String>> classesByPackage(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(file -> file.toString().endsWith(".java"))
          .filter(file -> !file.getFileName().toString().equals("package-info.java"))
          .collect(
              Collectors.groupingBy(
                  file -> root.relativize(file.getParent()).toString().replace('/', '.'),
                  TreeMap::new,
                  Collectors.mapping(
                      TestTreeLayoutTest::simpleName, Collectors.toCollection(TreeSet::new))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void everyScenarioPlaysUnderTheEmulatorAndNotOnCraftedRequests() {
    Map<Path, String> sources = sources(TESTS);
    Set<String> builders = new TreeSet<>(Set.of(REQUEST_BUILDER));
    sources.forEach(
        (file, code) -> {
          String name = simpleName(file);
          if (!isTest(name) && HANDS_OUT_THE_BUILDER.matcher(code).find()) {
            builders.add(name);
          }
        });
    Set<String> scenarios = new TreeSet<>();
    Set<String> offWorld = new TreeSet<>();
    sources.forEach(
        (file, code) -> {
          String name = simpleName(file);
          if (!SCENARIO.matcher(name).matches()) {
            return;
          }
          scenarios.add(name);
          boolean emulated = EMULATOR.matcher(code).find();
          boolean crafted = builders.stream().anyMatch(b -> WORD.apply(b).matcher(code).find());
          if (!emulated || crafted) {
            offWorld.add(name + (crafted ? " uses the request builder" : " uses no emulator"));
          }
        });
    assertThat(sources.keySet())
        .as("the request builder, by the name this test knows")
        .anyMatch(file -> simpleName(file).equals(REQUEST_BUILDER));
    assertThat(scenarios).as("scenario tests").hasSizeGreaterThan(20);
    assertThat(offWorld).as("scenarios off the emulator").isEmpty();
  }

  private static String simpleName(Path file) {
    return file.getFileName().toString().replaceFirst("\\.java$", "");
  }

  private static boolean isTest(String name) {
    return name.endsWith("Test") || name.endsWith("IT");
  }

  /** The code of every class under {@code root} (comments and string literals left out), by its file. */
  private static Map<Path, String> sources(Path root) {
    Map<Path, String> sources = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String code = Files.readString(file);
        sources.put(
            file, FastLoopStartsNoProcessTest.COMMENT_OR_STRING.matcher(code).replaceAll(" "));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sources;
  }

  @Test
  void theRuleCatchesAHelperInAKitPackage() {
    Set<String> kitClasses = Set.of("Emulator", "EmulatorExtension");
    assertThat(isTestOfOneOf("EmulatorExtensionPerClassTest", kitClasses)).isTrue();
    assertThat(isTestOfOneOf("EmulatorIT", kitClasses)).isTrue();
    assertThat(List.of("PostgresServer", "EmulatorHelper", "PollTest"))
        .noneMatch(name -> isTestOfOneOf(name, kitClasses));
  }
}

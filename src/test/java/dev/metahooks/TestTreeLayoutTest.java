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
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout of the service's test tree ({@code src/test/java}). The testing kit ({@code testing/}) publishes its
 * packages in its jar; a class of the service's tests in one of them reads as part of the kit and could hide or
 * shadow a kit class of the same name (a helper's name is no test's, so none can). So a kit package holds only the tests of its kit classes, each named after
 * the class it tests ({@code CrdSchemaTest}, {@code ClusterInvalidOwnerTest}); the service's own test helpers live
 * in {@code dev.metahooks.testsupport}.
 */
class TestTreeLayoutTest {
  private static final Path KIT = Resources.projectDir().resolve("testing/src/main/java");
  private static final Path TESTS = Resources.projectDir().resolve("src/test/java");

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
                      file -> file.getFileName().toString().replaceFirst("\\.java$", ""),
                      Collectors.toCollection(TreeSet::new))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

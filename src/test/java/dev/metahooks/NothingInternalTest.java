package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.testing.PublicApi;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The testing kit, the built-in controllers and the example project are written as a user writes: they reach
 * metahooks through its public API only ({@link PublicApi}), so what they do a user can do, and an internal class
 * can change without breaking them. The kit is read from its compiled classes (every class it names, in signatures
 * and code, imported or written out), the controllers by the check a user's project runs; the example, which this
 * build does not compile, from its sources (its own build runs {@link PublicApi#assertOnlyPublicApiIn} on its
 * classes).
 */
class NothingInternalTest {
  private static final Path PROJECT = Resources.projectDir();
  private static final Path KIT_SOURCES = PROJECT.resolve("testing/src/main/java");

  /** Where the kit's module compiles it. */
  private static final Path KIT_CLASSES = PROJECT.resolve("testing/target/classes");

  private static final Pattern SOURCE_NAME =
      Pattern.compile("\\bdev\\.metahooks\\.(?:[a-z][a-z0-9_]*\\.)*(?:[A-Z]\\w*|\\*)");

  @Test
  void theTestingKitUsesOnlyThePublicApi() throws IOException {
    Set<String> kit = kitClasses();
    Set<String> internal = new TreeSet<>();
    int classFiles = 0;
    for (String kitClass : kit) {
      for (Path classFile : classFilesOf(kitClass)) {
        classFiles++;
        for (String used : PublicApi.metahooksClassesUsedBy(classFile)) {
          if (!kit.contains(used.split("\\$", 2)[0]) && !PublicApi.ofLibrary(used)) {
            internal.add(kitClass + " -> " + used);
          }
        }
      }
    }
    assertThat(classFiles)
        .as("kit class files in %s", KIT_CLASSES)
        .isGreaterThanOrEqualTo(kit.size());
    assertThat(internal).as("internal classes the testing kit uses").isEmpty();
  }

  /** The built-in controllers are written as a user's are: they pass the check a user's project runs. */
  @Test
  void theBuiltInControllersUseOnlyThePublicApi() {
    PublicApi.assertOnlyPublicApiIn(PROJECT.resolve("target/classes/dev/metahooks/controllers"));
  }

  @Test
  void theExampleProjectUsesOnlyThePublicApiAndTheKit() throws IOException {
    Set<String> internal = new TreeSet<>();
    int mentions = 0;
    for (Path source : files(PROJECT.resolve("examples"), ".java")) {
      Matcher name = SOURCE_NAME.matcher(Files.readString(source));
      while (name.find()) {
        mentions++;
        if (name.group().endsWith(".*") || !PublicApi.contains(name.group())) {
          internal.add(PROJECT.relativize(source) + " -> " + name.group());
        }
      }
    }
    assertThat(mentions).as("metahooks classes named in examples/").isGreaterThan(5);
    assertThat(internal).as("internal classes (or whole packages) the example uses").isEmpty();
  }

  @Test
  void theCheckFindsAnInternalClassWhereverItIsNamed() {
    Path thisProjectsTests = PROJECT.resolve("target/test-classes/dev/metahooks/server");
    assertThat(
            PublicApi.metahooksClassesUsedBy(thisProjectsTests.resolve("InProcessHooksTest.class")))
        .contains(
            "dev.metahooks.server.InProcessHooks",
            "dev.metahooks.server.InProcessHooks$Response",
            "dev.metahooks.controllers.helloworld.HelloWorldController");
    assertThatThrownBy(() -> PublicApi.assertOnlyPublicApiIn(thisProjectsTests))
        .hasMessageContaining(
            "InProcessHooksTest.class -> dev.metahooks.controllers.helloworld.HelloWorldController");
    assertThat(PublicApi.contains("dev.metahooks.server.internal.FrontDoor")).isFalse();
    assertThat(PublicApi.contains("dev.metahooks.server.config.ServerConfig$Tls")).isTrue();
  }

  /**
   * The kit's public face is dev.metahooks.testing and the emulator classes a scenario works with: their public
   * signatures name nothing of the engine's internal classes, so a scenario never has to import one.
   */
  @Test
  void theKitsPublicFaceNamesNoInternalClassOfTheEngine() throws Exception {
    Set<String> leaks = new TreeSet<>();
    int checked = 0;
    for (String kitClass : kitClasses()) {
      if (!PublicApi.contains(kitClass)) {
        continue;
      }
      Class<?> type = Class.forName(kitClass);
      checked++;
      for (Method method : type.getMethods()) {
        List<Class<?>> named = new ArrayList<>(List.of(method.getParameterTypes()));
        named.add(method.getReturnType());
        for (Class<?> t : named) {
          Class<?> element = t.isArray() ? t.getComponentType() : t;
          if (element.getName().startsWith("dev.metahooks.")
              && !PublicApi.contains(element.getName())) {
            leaks.add(kitClass + "." + method.getName() + " -> " + element.getName());
          }
        }
      }
    }
    assertThat(checked).isGreaterThan(20);
    assertThat(leaks).isEmpty();
    assertThat(PublicApi.contains("dev.metahooks.emulator.CompositeLoop")).isFalse();
    assertThat(PublicApi.contains("dev.metahooks.emulator.Cluster")).isTrue();
    assertThat(PublicApi.contains("dev.metahooks.testing.EmulatorExtension")).isTrue();
  }

  /** The kit's top-level classes, from its source files. */
  private static Set<String> kitClasses() throws IOException {
    Set<String> names = new TreeSet<>();
    for (Path source : files(KIT_SOURCES, ".java")) {
      String name =
          KIT_SOURCES.relativize(source).toString().replace('/', '.').replaceAll("\\.java$", "");
      if (!name.endsWith("package-info")) {
        names.add(name);
      }
    }
    assertThat(names).as("kit sources in %s", KIT_SOURCES).isNotEmpty();
    return names;
  }

  /** The class file of a top-level class and those of its nested and anonymous classes. */
  private static List<Path> classFilesOf(String topLevelClass) throws IOException {
    Path file = KIT_CLASSES.resolve(topLevelClass.replace('.', '/') + ".class");
    String simple = file.getFileName().toString().replace(".class", "");
    try (Stream<Path> siblings = Files.list(file.getParent())) {
      return siblings
          .filter(
              f ->
                  f.getFileName().toString().equals(simple + ".class")
                      || f.getFileName().toString().startsWith(simple + "$"))
          .sorted()
          .toList();
    }
  }

  private static List<Path> files(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.toString().endsWith(suffix) && !f.toString().contains("/target/"))
          .sorted()
          .toList();
    }
  }
}

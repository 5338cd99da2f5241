package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.Resources;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
 * The testing kit and the example project are written as a user writes: they reach metahooks through its public
 * API only (see package-info.java), so what they do a user can do, and an internal class can change without
 * breaking them. The kit is read from its compiled classes (every class it names, in signatures and code, fully
 * qualified or imported); the example, which this build does not compile, from its sources.
 */
class NothingInternalTest {
  private static final Path PROJECT = Resources.projectDir();
  private static final Path KIT_SOURCES = PROJECT.resolve("testing/src/main/java");
  /** Where the root build compiles the kit's sources, with its own tests. */
  private static final Path KIT_CLASSES = PROJECT.resolve("target/test-classes");
  private static final Pattern CLASS_NAME = Pattern.compile("dev/metahooks/[A-Za-z0-9_/]+");
  private static final Pattern SOURCE_NAME = Pattern.compile("\\bdev\\.metahooks\\.(?:[a-z][a-z0-9_]*\\.)*(?:[A-Z]\\w*|\\*)");

  @Test
  void theTestingKitUsesOnlyThePublicApi() throws IOException {
    Set<String> kit = kitClasses();
    Set<String> internal = new TreeSet<>();
    int classFiles = 0;
    for (String kitClass : kit) {
      for (Path classFile : classFilesOf(kitClass)) {
        classFiles++;
        for (String used : referencedClasses(classFile)) {
          if (!kit.contains(used) && !PublicApiTest.isPublicApi(used)) {
            internal.add(kitClass + " -> " + used);
          }
        }
      }
    }
    assertThat(classFiles).as("kit class files in %s", KIT_CLASSES).isGreaterThanOrEqualTo(kit.size());
    assertThat(internal).as("internal classes the testing kit uses").isEmpty();
  }

  @Test
  void theExampleProjectUsesOnlyThePublicApiAndTheKit() throws IOException {
    Set<String> kit = kitClasses();
    Set<String> internal = new TreeSet<>();
    int mentions = 0;
    for (Path source : files(PROJECT.resolve("examples"), ".java")) {
      Matcher name = SOURCE_NAME.matcher(Files.readString(source));
      while (name.find()) {
        mentions++;
        String used = name.group();
        if (used.endsWith(".*") || !kit.contains(used) && !PublicApiTest.isPublicApi(used)) {
          internal.add(PROJECT.relativize(source) + " -> " + used);
        }
      }
    }
    assertThat(mentions).as("metahooks classes named in examples/").isGreaterThan(5);
    assertThat(internal).as("internal classes (or whole packages) the example uses").isEmpty();
  }

  @Test
  void theCheckSeesAnInternalClass() throws IOException {
    Set<String> used = referencedClasses(KIT_CLASSES.resolve("dev/metahooks/server/InProcessHooksTest.class"));
    assertThat(used).contains("dev.metahooks.server.InProcessHooks", "dev.metahooks.server.HookServer",
        "dev.metahooks.controllers.helloworld.HelloWorldController");
    assertThat(PublicApiTest.isPublicApi("dev.metahooks.controllers.helloworld.HelloWorldController")).isFalse();
  }

  /** The kit's top-level classes, from its source files. */
  private static Set<String> kitClasses() throws IOException {
    Set<String> names = new TreeSet<>();
    for (Path source : files(KIT_SOURCES, ".java")) {
      String name = KIT_SOURCES.relativize(source).toString().replace('/', '.').replaceAll("\\.java$", "");
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
      return siblings.filter(f -> f.getFileName().toString().equals(simple + ".class")
          || f.getFileName().toString().startsWith(simple + "$")).sorted().toList();
    }
  }

  /**
   * The top-level metahooks classes a class file names anywhere in its constant pool: classes it uses, and the
   * types in its descriptors and generic signatures.
   */
  static Set<String> referencedClasses(Path classFile) throws IOException {
    Set<String> names = new TreeSet<>();
    try (InputStream file = Files.newInputStream(classFile); DataInputStream in = new DataInputStream(file)) {
      in.readInt(); // magic
      in.readUnsignedShort(); // minor version
      in.readUnsignedShort(); // major version
      int count = in.readUnsignedShort();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> {
            Matcher name = CLASS_NAME.matcher(in.readUTF());
            while (name.find()) {
              names.add(name.group().replace('/', '.'));
            }
          }
          case 7, 8, 16, 19, 20 -> in.skipBytes(2); // class, string, method type, module, package
          case 15 -> in.skipBytes(3); // method handle
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
          case 5, 6 -> { // long and double take two entries
            in.skipBytes(8);
            i++;
          }
          default -> throw new IOException(classFile + ": unknown constant pool tag " + tag);
        }
      }
    }
    return names;
  }

  private static List<Path> files(Path dir, String suffix) throws IOException {
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      files.filter(f -> f.toString().endsWith(suffix) && !f.toString().contains("/target/")).sorted()
          .forEach(found::add);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return found;
  }
}

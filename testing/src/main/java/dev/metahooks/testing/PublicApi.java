package dev.metahooks.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What of metahooks a project may use without being broken by the next release, and a check that it uses nothing
 * else. Public are the packages {@code dev.metahooks.api}, {@code dev.metahooks.kube} and
 * {@code dev.metahooks.server} ({@code HookServer}, {@code InProcessHooks} and {@code PemFiles}; the server's machinery
 * is in {@code dev.metahooks.server.internal}) and {@code dev.metahooks.server.config} ({@code ServerConfig},
 * {@code ConfigurationException}),
 * the classes {@code dev.metahooks.Metahooks} and {@code dev.metahooks.BuiltInControllers}, with their nested classes; and this testing kit,
 * {@code dev.metahooks.testing} and {@code dev.metahooks.testing.kube} (schemas, CRDs, YAML and the API server's
 * REST, which the emulator's engine uses too), with the classes of the emulator a scenario works with
 * ({@link #emulatorClasses()}: the API server, Metacontroller, the checks of what they emitted and the types their
 * methods take and give). Everything else is internal, the rest of the emulator's engine too: the jar is used on
 * the class path, where nothing stops an import of it, so this check does.
 *
 * <pre>{@code
 * @Test
 * void usesOnlyThePublicApi() {
 *   PublicApi.assertOnlyPublicApiIn(Path.of("target/classes"), Path.of("target/test-classes"));
 * }
 * }</pre>
 */
public final class PublicApi {
  private static final Set<String> PUBLIC_PACKAGES =
      Set.of(
          "dev.metahooks.api",
          "dev.metahooks.kube",
          "dev.metahooks.server",
          "dev.metahooks.server.config");
  private static final Set<String> PUBLIC_CLASSES =
      Set.of("dev.metahooks.Metahooks", "dev.metahooks.BuiltInControllers");
  private static final Set<String> KIT_PACKAGES =
      Set.of("dev.metahooks.testing", "dev.metahooks.testing.kube");
  private static final Set<String> EMULATOR_CLASSES =
      Set.of(
              "Cluster",
              "Metacontroller",
              "Emitted",
              "ApiResources",
              "Event",
              "HookCall",
              "IdleUpdate",
              "PodPolicy",
              "PodState",
              "Profile",
              "Round",
              "SyncError",
              "World",
              "Write")
          .stream()
          .map(name -> "dev.metahooks.emulator." + name)
          .collect(Collectors.toUnmodifiableSet());

  /** A class's name as a class file writes it; a package-info's has a hyphen. */
  private static final Pattern CLASS_NAME = Pattern.compile("dev/metahooks/[A-Za-z0-9_/$-]+");

  private PublicApi() {}

  /** The library's packages that are public API as a whole. */
  public static Set<String> libraryPackages() {
    return PUBLIC_PACKAGES;
  }

  /** The library's public classes in packages that are otherwise internal (or hold internal classes too). */
  public static Set<String> libraryClasses() {
    return PUBLIC_CLASSES;
  }

  /** Whether the library's public API holds this class (a binary name: {@code a.b.Outer$Inner}). */
  public static boolean ofLibrary(String className) {
    String topLevel = className.split("\\$", 2)[0];
    int dot = topLevel.lastIndexOf('.');
    return dot > 0 && PUBLIC_PACKAGES.contains(topLevel.substring(0, dot))
        || PUBLIC_CLASSES.contains(topLevel);
  }

  /** The emulator's classes a scenario works with; the rest of {@code dev.metahooks.emulator} is internal. */
  public static Set<String> emulatorClasses() {
    return EMULATOR_CLASSES;
  }

  /** Whether a project may use this metahooks class: the library's public API or the testing kit. */
  public static boolean contains(String className) {
    String topLevel = className.split("\\$", 2)[0];
    int dot = topLevel.lastIndexOf('.');
    return ofLibrary(className)
        || dot > 0 && KIT_PACKAGES.contains(topLevel.substring(0, dot))
        || EMULATOR_CLASSES.contains(topLevel);
  }

  /**
   * Fails naming every class file below the directories that uses a metahooks class outside the public API. The
   * classes compiled below the directories are the project's own, whatever their package: only what they use of
   * metahooks is checked.
   */
  public static void assertOnlyPublicApiIn(Path... classDirectories) {
    Map<Path, ClassFile> read = new TreeMap<>();
    for (Path directory : classDirectories) {
      for (Path classFile : classFiles(directory)) {
        read.put(classFile, ClassFile.read(classFile));
      }
    }
    Set<String> own = read.values().stream().map(ClassFile::name).collect(Collectors.toSet());
    Set<String> internal = new TreeSet<>();
    for (Path directory : classDirectories) {
      for (Path classFile : classFiles(directory)) {
        for (String used : read.get(classFile).metahooksClasses()) {
          if (!contains(used) && !own.contains(used)) {
            internal.add(directory.relativize(classFile) + " -> " + used);
          }
        }
      }
    }
    assertThat(read).as("class files below %s", List.of(classDirectories)).isNotEmpty();
    assertThat(internal).as("metahooks classes outside the public API").isEmpty();
  }

  /**
   * The metahooks classes a class file names anywhere in its constant pool: those its code uses, and the types of
   * its descriptors and generic signatures, whether the source imported them or wrote them out.
   */
  public static Set<String> metahooksClassesUsedBy(Path classFile) {
    return ClassFile.read(classFile).metahooksClasses();
  }

  /** A class file's own name (binary, {@code a.b.Outer$Inner}) and the metahooks classes it names. */
  private record ClassFile(String name, Set<String> metahooksClasses) {
    /** Reads the constant pool and the this_class entry after it (JVMS 4.1, 4.4). */
    static ClassFile read(Path classFile) {
      Set<String> names = new TreeSet<>();
      try (InputStream file = Files.newInputStream(classFile);
          DataInputStream in = new DataInputStream(file)) {
        in.readInt(); // magic
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        String[] texts = new String[count];
        int[] classNames = new int[count];
        for (int i = 1; i < count; i++) {
          int tag = in.readUnsignedByte();
          switch (tag) {
            case 1 -> {
              texts[i] = in.readUTF();
              Matcher name = CLASS_NAME.matcher(texts[i]);
              while (name.find()) {
                names.add(name.group().replace('/', '.'));
              }
            }
            case 7 -> classNames[i] = in.readUnsignedShort();
            case 8, 16, 19, 20 -> in.skipBytes(2); // string, method type, module, package
            case 15 -> in.skipBytes(3); // method handle
            case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
            case 5, 6 -> { // a long or a double takes two entries
              in.skipBytes(8);
              i++;
            }
            default -> throw new IOException("unknown constant pool tag " + tag);
          }
        }
        in.readUnsignedShort(); // access flags
        return new ClassFile(texts[classNames[in.readUnsignedShort()]].replace('/', '.'), names);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the class file " + classFile, e);
      }
    }
  }

  private static List<Path> classFiles(Path directory) {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(f -> f.toString().endsWith(".class")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

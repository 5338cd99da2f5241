package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.PublicApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API is what package-info.java declares and the kit's {@link PublicApi} holds (dev.metahooks.Metahooks,
 * api, kube and server; server.internal is not):
 * its public signatures mention only the JDK, Jackson and the public API itself, so a user never has to reach an
 * internal type to use it. And the jar registers no SLF4J provider, so a host application keeps its own.
 */
public class PublicApiTest {
  private static final Path CLASSES = Path.of("library/target/classes");
  private static final Path SERVICE_CLASSES = Path.of("target/classes");
  private static final List<Path> MAIN_SOURCES =
      List.of(Path.of("library/src/main/java"), Path.of("src/main/java"));

  static boolean isPublicApi(Class<?> type) {
    return PublicApi.ofLibrary(type.getName());
  }

  @Test
  void publicSignaturesMentionOnlyThePublicApiTheJdkAndJackson() throws Exception {
    Set<String> leaks = new TreeSet<>();
    for (Class<?> type : publicApiClasses()) {
      List<Executable> members = new ArrayList<>(List.of(type.getMethods()));
      members.addAll(List.of(type.getConstructors()));
      for (Executable member : members) {
        if (member.getDeclaringClass() != type) {
          continue;
        }
        List<Type> mentioned = new ArrayList<>(List.of(member.getGenericParameterTypes()));
        if (member instanceof Method method) {
          mentioned.add(method.getGenericReturnType());
        }
        mentioned.addAll(List.of(member.getGenericExceptionTypes()));
        for (Type t : mentioned) {
          check(
              t,
              type.getName() + "." + (member instanceof Constructor ? "<init>" : member.getName()),
              leaks);
        }
      }
      for (Field field : type.getFields()) {
        if (field.getDeclaringClass() == type) {
          check(field.getGenericType(), type.getName() + "." + field.getName(), leaks);
        }
      }
    }
    assertThat(leaks).as("internal types in public signatures").isEmpty();
  }

  /**
   * Every package of the jar says in its javadoc (its own package-info.java, or its parent's) whether it is public
   * API or internal, and that javadoc names each class of it that {@link PublicApi} holds public: the statement a
   * user reads and the list the check enforces are the same.
   */
  @Test
  void everyPackageSaysWhetherItIsPublicAndNamesItsPublicClasses() throws IOException {
    Set<String> problems = new TreeSet<>();
    for (Path classes : List.of(CLASSES, SERVICE_CLASSES)) {
      try (Stream<Path> dirs = Files.walk(classes.resolve("dev/metahooks"))) {
        for (Path dir : dirs.filter(Files::isDirectory).toList()) {
          Path relative = classes.relativize(dir);
          String pkg = relative.toString().replace('/', '.');
          String text = packageInfo(relative);
          boolean declaredPublic = text.startsWith("/**\n * <b>Public API</b>");
          if (!declaredPublic && !text.startsWith("/**\n * <b>Internal</b>")) {
            problems.add(
                pkg + ": no package-info.java starting with <b>Public API</b> or <b>Internal</b>");
          }
          if (PublicApi.libraryPackages().contains(pkg) && !declaredPublic) {
            problems.add(pkg + ": public API, but its package-info.java does not say so");
          }
          for (String publicClass : PublicApi.libraryClasses()) {
            String simpleName = publicClass.substring(publicClass.lastIndexOf('.') + 1);
            if (publicClass.equals(pkg + "." + simpleName) && !text.contains(simpleName)) {
              problems.add(
                  pkg + ": package-info.java does not name its public class " + simpleName);
            }
          }
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  /** The package-info.java of a package (its own or its nearest parent's), in whichever module's sources it is. */
  private static String packageInfo(Path packageDir) throws IOException {
    for (Path dir = packageDir;
        dir != null && dir.startsWith("dev/metahooks");
        dir = dir.getParent()) {
      for (Path sources : MAIN_SOURCES) {
        Path doc = sources.resolve(dir).resolve("package-info.java");
        if (Files.exists(doc)) {
          return Files.readString(doc);
        }
      }
    }
    return "";
  }

  /** The server's public package holds its public classes only; its machinery is in the internal one. */
  @Test
  void theServerPackageHoldsOnlyItsPublicClasses() throws IOException {
    Set<String> topLevel = new TreeSet<>();
    try (Stream<Path> files = Files.list(CLASSES.resolve("dev/metahooks/server"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        topLevel.add(file.getFileName().toString().replaceAll("(\\$.*)?\\.class$", ""));
      }
    }
    topLevel.remove("package-info");
    assertThat(topLevel).containsExactlyInAnyOrder("HookServer", "InProcessHooks", "PemFiles");
    assertThat(PublicApi.ofLibrary("dev.metahooks.server.config.ServerConfig$Builder")).isTrue();
    assertThat(PublicApi.ofLibrary("dev.metahooks.server.internal.FrontDoor")).isFalse();
    assertThat(PublicApi.libraryPackages()).doesNotContain("dev.metahooks.server.internal");
  }

  @Test
  void theJarRegistersNoLoggingProvider() {
    assertThat(CLASSES.resolve("META-INF/services/org.slf4j.spi.SLF4JServiceProvider"))
        .doesNotExist();
  }

  private static void check(Type type, String where, Set<String> leaks) {
    if (type instanceof ParameterizedType parameterized) {
      check(parameterized.getRawType(), where, leaks);
      for (Type argument : parameterized.getActualTypeArguments()) {
        check(argument, where, leaks);
      }
    } else if (type instanceof Class<?> cls) {
      Class<?> element = cls;
      while (element.isArray()) {
        element = element.getComponentType();
      }
      String name = element.getName();
      if (!element.isPrimitive() && name.startsWith("dev.metahooks.") && !isPublicApi(element)) {
        leaks.add(where + " -> " + name);
      }
    }
  }

  public static List<Class<?>> publicApiClasses() {
    List<Class<?>> classes = new ArrayList<>();
    for (Path root : List.of(CLASSES, SERVICE_CLASSES)) {
      try (Stream<Path> files = Files.walk(root.resolve("dev/metahooks"))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
          String name =
              root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
          Class<?> type = load(name);
          if (Modifier.isPublic(type.getModifiers())
              && isPublicApi(type)
              && !name.endsWith("package-info")) {
            classes.add(type);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return classes;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, PublicApiTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new UncheckedIOException(new IOException(e));
    }
  }
}

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
 * api, kube, and five classes of server):
 * its public signatures mention only the JDK, Jackson and the public API itself, so a user never has to reach an
 * internal type to use it. And the jar registers no SLF4J provider, so a host application keeps its own.
 */
class PublicApiTest {
  private static final Path CLASSES = Path.of("target/classes");
  /** Members documented as internal: the server reads them, controllers do not. */
  private static final Set<String> INTERNAL_MEMBERS = Set.of("dev.metahooks.api.Controller.unread",
      "dev.metahooks.api.Json.parse");

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
        if (member.getDeclaringClass() != type || INTERNAL_MEMBERS.contains(type.getName() + "." + member.getName())) {
          continue;
        }
        List<Type> mentioned = new ArrayList<>(List.of(member.getGenericParameterTypes()));
        if (member instanceof Method method) {
          mentioned.add(method.getGenericReturnType());
        }
        mentioned.addAll(List.of(member.getGenericExceptionTypes()));
        for (Type t : mentioned) {
          check(t, type.getName() + "." + (member instanceof Constructor ? "<init>" : member.getName()), leaks);
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

  @Test
  void theJarRegistersNoLoggingProvider() {
    assertThat(CLASSES.resolve("META-INF/services/org.slf4j.spi.SLF4JServiceProvider")).doesNotExist();
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

  private static List<Class<?>> publicApiClasses() throws IOException {
    List<Class<?>> classes = new ArrayList<>();
    try (Stream<Path> files = Files.walk(CLASSES.resolve("dev/metahooks"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = CLASSES.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        Class<?> type = load(name);
        if (Modifier.isPublic(type.getModifiers()) && isPublicApi(type) && !name.endsWith("package-info")) {
          classes.add(type);
        }
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

package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering of every module's sources (library, testing kit, service), read from their imports and fully
 * qualified names: no package cycle, the walls of docs/architecture.md (the wire model knows neither HTTP nor
 * controllers, a controller never touches HTTP, the server never knows a controller's domain) and PostgresCluster's
 * layers (docs/postgrescluster/internals.md), each
 * of which uses only those below it.
 */
class ArchitectureTest {
  /** The main sources of every module: the library, the testing kit and the service. */
  private static final List<Path> SOURCE_ROOTS =
      List.of(
          Path.of("library/src/main/java"),
          Path.of("testing/src/main/java"),
          Path.of("src/main/java"));

  private static final Path SERVICE_SOURCES = Path.of("src/main/java");
  private static final String ROOT = "dev.metahooks";
  private static final String POSTGRES = ROOT + ".controllers.postgres";
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(dev\\.metahooks(?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]\\w*");
  private static final Pattern EXTERNAL =
      Pattern.compile(
          "^import (?:static )?(io\\.javalin|org\\.eclipse\\.jetty|" + "io\\.micrometer)\\.",
          Pattern.MULTILINE);

  /** A record's header, up to its opening parenthesis. */
  private static final Pattern RECORD =
      Pattern.compile("\\brecord\\s+(\\w+)\\s*(?:<[^>]*>)?\\s*\\(");

  private static final int MAX_PLAN_COMPONENTS = 6;

  /** The project's packages and those each may use (besides itself and the JDK, Jackson and SLF4J). */
  private static final Map<String, Set<String>> ALLOWED =
      Map.of(
          "json", Set.of(),
          "replay", Set.of(),
          "api", Set.of("json", "replay"),
          "kube", Set.of("api", "json"),
          "logging", Set.of(),
          "server", Set.of("api", "json", "kube", "logging", "replay"),
          "controllers", Set.of("api", "kube"),
          "cli", Set.of("api", "json", "kube", "logging", "server", "controllers", "replay"));

  /**
   * PostgresCluster's layers, lowest first: each may use the layers before it, never one after it or beside it. The
   * children are in rooms by feature above what they share ({@code children}): the backups (with Spilo's WAL
   * archive settings), which a standby's settings build on, which the database pods carry; the credentials, which
   * point at the pods' TLS files; then the Jobs, the network and the pooler, which use those and not each other.
   */
  private static final List<Set<String>> POSTGRES_LAYERS =
      List.of(
          Set.of("base"),
          Set.of("spec"),
          Set.of("observed"),
          Set.of("plan"),
          Set.of("children"),
          Set.of("children.backup"),
          Set.of("children.standby"),
          Set.of("children.pod"),
          Set.of("children.access"),
          Set.of("children.jobs", "children.network", "children.pooler"),
          Set.of("status"),
          Set.of(""));

  /** One reference from a source file to a package of the project. */
  private record Use(Path file, String from, String to) {
    @Override
    public String toString() {
      return file + ": " + from + " uses " + to;
    }
  }

  @Test
  void eachTopLevelPackageUsesOnlyWhatTheArchitectureAllows() {
    Set<String> violations = new TreeSet<>();
    for (Use use : uses()) {
      String from = topLevel(use.from());
      String to = topLevel(use.to());
      if (from.isEmpty() || from.equals(to) || !ALLOWED.containsKey(from)) {
        continue;
      }
      if (!ALLOWED.get(from).contains(to)) {
        violations.add(use.toString());
      }
    }
    assertThat(violations).as("references across the architecture's walls").isEmpty();
  }

  @Test
  void onlyTheServerTouchesHttpAndMetrics() throws IOException {
    Set<String> violations = new TreeSet<>();
    for (Path file : sources()) {
      String pkg = packageOf(file);
      Matcher external = EXTERNAL.matcher(Files.readString(file));
      if (external.find() && !topLevel(pkg).equals("server")) {
        violations.add(file + " imports " + external.group(1));
      }
    }
    assertThat(violations).as("HTTP or metrics outside the server").isEmpty();
  }

  @Test
  void aControllerNeverUsesAnotherControllersPackage() {
    Set<String> violations = new TreeSet<>();
    for (Use use : uses()) {
      String from = controller(use.from());
      String to = controller(use.to());
      if (!from.isEmpty() && !to.isEmpty() && !from.equals(to)) {
        violations.add(use.toString());
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void postgresClusterLayersUseOnlyTheLayersBelowThem() {
    Set<String> violations = new TreeSet<>();
    int checked = 0;
    for (Use use : uses()) {
      if (!use.from().startsWith(POSTGRES) || !use.to().startsWith(POSTGRES)) {
        continue;
      }
      checked++;
      int from = layer(use.from());
      int to = layer(use.to());
      boolean sameLayerOtherPackage = from == to && !use.from().equals(use.to());
      if (to > from || sameLayerOtherPackage) {
        violations.add(use.toString());
      }
    }
    assertThat(checked).as("references between PostgresCluster's packages").isGreaterThan(100);
    assertThat(violations).as("references upwards or sideways").isEmpty();
  }

  /**
   * The children render what the plan decided and never look at the observed cluster themselves: everything they
   * need of it (a password kept, a Job kept as it runs, the members a Role names) is a decision in {@code plan}.
   */
  @Test
  void noChildrenBuilderSeesTheObservedCluster() {
    Set<String> violations = new TreeSet<>();
    int checked = 0;
    for (Use use : uses()) {
      if (use.from().startsWith(POSTGRES + ".children")) {
        checked++;
        if (use.to().equals(POSTGRES + ".observed")) {
          violations.add(use.toString());
        }
      }
    }
    assertThat(checked).as("references from the children's packages").isGreaterThan(50);
    assertThat(violations).as("children reading the observed cluster").isEmpty();
  }

  /**
   * No two packages of any module reach each other, directly or through others: each package can be read, tested
   * and moved with what it uses, never with what uses it.
   */
  @Test
  void noPackageIsInACycle() {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (Use use : uses()) {
      if (!use.from().equals(use.to())) {
        graph.computeIfAbsent(use.from(), k -> new TreeSet<>()).add(use.to());
      }
    }
    Set<String> cycles = new TreeSet<>();
    for (Map.Entry<String, Set<String>> edges : graph.entrySet()) {
      for (String to : edges.getValue()) {
        if (reachable(graph, to).contains(edges.getKey())) {
          cycles.add(edges.getKey() + " uses " + to + ", which leads back to it");
        }
      }
    }
    assertThat(graph).as("packages with references").hasSizeGreaterThan(30);
    assertThat(cycles).as("package cycles").isEmpty();
  }

  private static Set<String> reachable(Map<String, Set<String>> graph, String from) {
    Set<String> seen = new TreeSet<>();
    Deque<String> next = new ArrayDeque<>(List.of(from));
    while (!next.isEmpty()) {
      String pkg = next.pop();
      if (seen.add(pkg)) {
        next.addAll(graph.getOrDefault(pkg, Set.of()));
      }
    }
    return seen;
  }

  /**
   * A plan record says what it holds in a few named parts: one of more than {@value #MAX_PLAN_COMPONENTS}
   * components groups what belongs together into a small record of its own.
   */
  @Test
  void noPlanRecordHasMoreThanSixComponents() {
    Map<String, Integer> records = new TreeMap<>();
    Path plan = SERVICE_SOURCES.resolve((POSTGRES + ".plan").replace('.', '/'));
    for (Path file : sources()) {
      if (file.startsWith(plan)) {
        String source = withoutComments(read(file));
        Matcher record = RECORD.matcher(source);
        while (record.find()) {
          records.put(file.getFileName() + " " + record.group(1), components(source, record.end()));
        }
      }
    }
    assertThat(records).as("records under plan/").hasSizeGreaterThan(10);
    assertThat(records)
        .as("Map<String, ObjectNode>, Map<String, String>, Map<String, String>: three")
        .containsEntry("Credentials.java Credentials", 3);
    assertThat(records.entrySet().stream().filter(e -> e.getValue() > MAX_PLAN_COMPONENTS))
        .as("plan records of more than " + MAX_PLAN_COMPONENTS + " components")
        .isEmpty();
  }

  /**
   * The components of the record whose header opens just before {@code from}: the commas outside type arguments
   * and annotations' parentheses, plus one (none for an empty header).
   */
  private static int components(String source, int from) {
    int depth = 0;
    int commas = 0;
    boolean empty = true;
    for (int i = from; i < source.length(); i++) {
      char c = source.charAt(i);
      if (c == ')' && depth == 0) {
        return empty ? 0 : commas + 1;
      }
      if (c == '(' || c == '<') {
        depth++;
      } else if (c == ')' || c == '>') {
        depth--;
      } else if (c == ',' && depth == 0) {
        commas++;
      }
      empty &= Character.isWhitespace(c);
    }
    throw new IllegalStateException("a record header without its end at " + from);
  }

  @Test
  void everyPostgresClusterPackageIsALayer() throws IOException {
    try (Stream<Path> dirs = Files.walk(SERVICE_SOURCES.resolve(POSTGRES.replace('.', '/')))) {
      dirs.filter(Files::isDirectory)
          .map(dir -> SERVICE_SOURCES.relativize(dir).toString().replace('/', '.'))
          .forEach(pkg -> assertThat(layer(pkg)).as(pkg).isNotNegative());
    }
  }

  private static int layer(String pkg) {
    String relative = pkg.equals(POSTGRES) ? "" : pkg.substring(POSTGRES.length() + 1);
    for (int i = 0; i < POSTGRES_LAYERS.size(); i++) {
      if (POSTGRES_LAYERS.get(i).contains(relative)) {
        return i;
      }
    }
    return -1;
  }

  /** The first package below dev.metahooks ("" for dev.metahooks itself). */
  private static String topLevel(String pkg) {
    if (!pkg.startsWith(ROOT + ".")) {
      return "";
    }
    String rest = pkg.substring(ROOT.length() + 1);
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

  /** The controller a package belongs to ("" for the controllers' catalog and anything else). */
  private static String controller(String pkg) {
    String prefix = ROOT + ".controllers.";
    if (!pkg.startsWith(prefix)) {
      return "";
    }
    String rest = pkg.substring(prefix.length());
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

  private static List<Use> uses() {
    List<Use> uses = new ArrayList<>();
    for (Path file : sources()) {
      String pkg = packageOf(file);
      Matcher reference =
          REFERENCE.matcher(withoutComments(read(file)).replaceFirst("(?m)^package [\\w.]+;", ""));
      while (reference.find()) {
        String to = reference.group(1);
        uses.add(new Use(file, pkg, to));
      }
    }
    assertThat(uses).as("references found").isNotEmpty();
    return uses;
  }

  private static List<Path> sources() {
    List<Path> sources = new ArrayList<>();
    for (Path root : SOURCE_ROOTS) {
      try (Stream<Path> files = Files.walk(root)) {
        files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(sources::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return sources;
  }

  private static String packageOf(Path file) {
    for (Path root : SOURCE_ROOTS) {
      if (file.startsWith(root)) {
        return root.relativize(file.getParent()).toString().replace('/', '.');
      }
    }
    throw new IllegalArgumentException(file.toString());
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Javadoc and text may name what they like; only code counts. */
  private static String withoutComments(String source) {
    return source
        .replaceAll("(?s)/\\*.*?\\*/", "")
        .replaceAll("//[^\\n]*", "")
        .replaceAll("\"(?:\\\\.|[^\"\\\\\\n])*\"", "\"\"");
  }
}

package dev.metahooks.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation's map holds: every Java package has its row in docs/architecture.md, every PostgresCluster
 * script and SQL file is named on the internals page, every page under docs/ is reached by links from the README,
 * and every relative link (with its anchor) leads somewhere.
 */
class DocsMapTest {
  private static final Path PROJECT = Resources.projectDir();

  /** Projects with sources of their own, outside the library and the kit (they are not the library's packages). */
  private static final Set<String> OTHER_PROJECTS =
      Set.of("examples", "archetype", "target", ".git");

  private static final String SCRIPTS = "src/main/resources/postgrescluster";
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");
  private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```");

  @Test
  void everyJavaPackageHasARowInTheArchitectureLayout() throws IOException {
    String layout = MarkdownBlocks.section(MarkdownBlocks.page("docs/architecture.md"), "Layout");
    Set<String> documented = new TreeSet<>();
    for (String row : layout.split("\n")) {
      if (row.startsWith("| `")) {
        Matcher name =
            Pattern.compile("`(dev\\.metahooks[a-z0-9.]*)`").matcher(row.split("\\|")[1]);
        while (name.find()) {
          documented.add(name.group(1));
        }
      }
    }
    assertThat(documented)
        .as("packages in the layout table of docs/architecture.md")
        .containsExactlyInAnyOrderElementsOf(javaPackages());
  }

  @Test
  void everyPostgresClusterScriptIsNamedOnTheInternalsPage() throws IOException {
    String internals = MarkdownBlocks.page("docs/postgrescluster/internals.md");
    Path root = PROJECT.resolve(SCRIPTS);
    List<String> scripts;
    try (Stream<Path> files = Files.walk(root)) {
      scripts =
          files
              .map(file -> root.relativize(file).toString().replace('\\', '/'))
              .filter(name -> name.endsWith(".sh") || name.endsWith(".sql") || name.endsWith(".py"))
              .sorted()
              .toList();
    }
    assertThat(scripts).as("scripts under " + SCRIPTS).isNotEmpty();
    assertThat(scripts)
        .as("named on docs/postgrescluster/internals.md")
        .allSatisfy(script -> assertThat(internals).contains("`" + script + "`"));
  }

  @Test
  void everyPageUnderDocsIsReachedFromTheReadme() throws IOException {
    Set<Path> reached = new TreeSet<>();
    Deque<Path> next = new ArrayDeque<>(List.of(PROJECT.resolve("README.md")));
    while (!next.isEmpty()) {
      Path page = next.pop().normalize();
      if (!reached.add(page) || !Files.isRegularFile(page)) {
        continue;
      }
      for (String target : relativeLinks(Files.readString(page))) {
        String file = target.replaceFirst("#.*$", "");
        if (file.endsWith(".md")) {
          next.push(page.getParent().resolve(file));
        }
      }
    }
    assertThat(docsPages())
        .as("pages under docs/ reached by links from README.md")
        .allSatisfy(page -> assertThat(reached).contains(page));
  }

  @Test
  void everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws IOException {
    List<Path> pages =
        new ArrayList<>(List.of(PROJECT.resolve("README.md"), PROJECT.resolve("CONTRIBUTING.md")));
    pages.addAll(docsPages());
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      for (String target : relativeLinks(Files.readString(page))) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(linked)) {
          broken.add(PROJECT.relativize(page) + ": " + target + " (no such file)");
        } else if (hash >= 0
            && linked.toString().endsWith(".md")
            && !anchors
                .computeIfAbsent(linked, DocsMapTest::anchorsOf)
                .contains(target.substring(hash + 1))) {
          broken.add(PROJECT.relativize(page) + ": " + target + " (no such heading)");
        }
      }
    }
    assertThat(broken).as("relative links that lead nowhere").isEmpty();
  }

  /** The anchors of a page's headings; a repeated heading's anchor gets -1, -2, … as where the pages are read. */
  private static Set<String> anchorsOf(Path page) {
    Set<String> anchors = new TreeSet<>();
    try {
      for (String title : MarkdownBlocks.headings(Files.readString(page))) {
        String anchor = MarkdownBlocks.anchor(title.replace("`", ""));
        String unique = anchor;
        for (int n = 1; !anchors.add(unique); n++) {
          unique = anchor + "-" + n;
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return anchors;
  }

  /** The targets of a page's links that stay in the repository (no scheme), outside code. */
  static List<String> relativeLinks(String text) {
    String prose = CODE_SPAN.matcher(FENCE.matcher(text).replaceAll("")).replaceAll("");
    List<String> targets = new ArrayList<>();
    for (Matcher link = LINK.matcher(prose); link.find(); ) {
      String target = link.group(1);
      if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
        targets.add(target);
      }
    }
    return targets;
  }

  private static List<Path> docsPages() throws IOException {
    try (Stream<Path> files = Files.walk(PROJECT.resolve("docs"))) {
      return files
          .filter(file -> file.toString().endsWith(".md"))
          .map(Path::normalize)
          .sorted()
          .toList();
    }
  }

  /** src/main/java of the library and of the kit, wherever a module of the build keeps them. */
  private static List<Path> sourceRoots() throws IOException {
    try (Stream<Path> dirs = Files.walk(PROJECT, 4)) {
      List<Path> roots =
          dirs.filter(dir -> dir.endsWith(Path.of("src", "main", "java")))
              .filter(
                  dir -> !OTHER_PROJECTS.contains(PROJECT.relativize(dir).getName(0).toString()))
              .sorted()
              .toList();
      assertThat(roots)
          .as("source roots of the library and the kit")
          .hasSizeGreaterThanOrEqualTo(2);
      return roots;
    }
  }

  private static Set<String> javaPackages() throws IOException {
    Set<String> packages = new TreeSet<>();
    for (Path sources : sourceRoots()) {
      try (Stream<Path> files = Files.walk(sources)) {
        files
            .filter(file -> file.toString().endsWith(".java"))
            .map(
                file ->
                    sources
                        .relativize(file.getParent())
                        .toString()
                        .replace('\\', '/')
                        .replace('/', '.'))
            .forEach(packages::add);
      }
    }
    return packages;
  }
}

package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * manifests/helm/metahooks is a plain chart: no symlinks, its files/ exactly the kustomize sources
 * scripts/chart-files.sh copies there, and {@code helm lint --strict} has nothing to say about it.
 */
class HelmChartFilesTest {
  private static final Path PROJECT = Resources.projectDir();
  private static final Path CHART = Manifests.MANIFESTS.resolve("helm/metahooks");
  private static final Path SCRIPT = PROJECT.resolve("scripts/chart-files.sh");

  /** The script's "source:target" pairs: a source directory of the repository, its copy under files/. */
  private static List<String[]> pairs() throws IOException {
    List<String[]> pairs = new ArrayList<>();
    Matcher pair =
        Pattern.compile("(?m)^\\s+\"([^\":]+):([^\"]+)\"$").matcher(Files.readString(SCRIPT));
    while (pair.find()) {
      pairs.add(new String[] {pair.group(1), pair.group(2)});
    }
    return pairs;
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void theChartHasNoSymlinks() throws IOException {
    try (Stream<Path> paths = Files.walk(CHART)) {
      assertThat(paths.filter(Files::isSymbolicLink).toList()).isEmpty();
    }
  }

  @Test
  void everyFileTheChartReadsIsACopyOfItsKustomizeSource() throws IOException {
    List<String[]> pairs = pairs();
    assertThat(pairs).hasSizeGreaterThanOrEqualTo(5);
    List<String> copied = new ArrayList<>();
    for (String[] pair : pairs) {
      Path source = PROJECT.resolve(pair[0]);
      Path copy = CHART.resolve("files").resolve(pair[1]);
      assertThat(names(copy))
          .as("files/%s against %s (run scripts/chart-files.sh)", pair[1], pair[0])
          .isEqualTo(names(source));
      for (String name : names(source)) {
        assertThat(Files.readString(copy.resolve(name)))
            .as(
                "files/%s/%s differs from %s/%s: run scripts/chart-files.sh",
                pair[1], name, pair[0], name)
            .isEqualTo(Files.readString(source.resolve(name)));
      }
      copied.add(pair[1].contains("/") ? pair[1].substring(0, pair[1].indexOf('/')) : pair[1]);
    }
    assertThat(names(CHART.resolve("files")))
        .as("every directory of files/ is a copy")
        .isEqualTo(copied.stream().distinct().sorted().toList());
  }

  @Test
  void helmLintFindsNothing() {
    LintResult lint = new Helm(CHART).lint().strict().call();
    assertThat(lint.getMessages()).isEmpty();
    assertThat(lint.isFailed()).isFalse();
  }
}

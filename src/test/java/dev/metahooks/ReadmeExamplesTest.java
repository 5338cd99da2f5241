package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The examples of the README and of every page under docs/ run: every {@code curl} of a fixture and every offline
 * call answer 200.
 */
class ReadmeExamplesTest {
  private static final Pattern CURL =
      Pattern.compile("--data-binary @(\\S+)\\s*(?:\\\\\\s*)?localhost:8080(/\\S+)");
  private static final Pattern CURL_PATH_FIRST =
      Pattern.compile("localhost:8080(/\\S+)\\s*(?:\\\\\\s*)?--data-binary @(\\S+)");
  private static final Pattern OFFLINE =
      Pattern.compile(
          "java -jar target/metahooks\\.jar (sync|finalize|customize) (\\S+) < (src/\\S+\\.json)");

  /** The README and every page under docs/, as one text. */
  private static String pages() throws IOException {
    StringBuilder text = new StringBuilder(MarkdownBlocks.page("README.md"));
    try (Stream<Path> files = Files.walk(Resources.projectDir().resolve("docs"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
        text.append('\n').append(Files.readString(file));
      }
    }
    return text.toString();
  }

  @TestFactory
  Stream<DynamicTest> curlExamples() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    String pages = pages();
    for (Matcher m = CURL.matcher(pages); m.find(); ) {
      tests.add(curl(m.group(1), m.group(2)));
    }
    for (Matcher m = CURL_PATH_FIRST.matcher(pages); m.find(); ) {
      tests.add(curl(m.group(2), m.group(1)));
    }
    assertThat(tests).as("curl examples in the README and docs/").hasSizeGreaterThanOrEqualTo(2);
    return tests.stream();
  }

  private static DynamicTest curl(String fixture, String path) {
    Path file = Resources.projectDir().resolve(fixture);
    return DynamicTest.dynamicTest(
        "curl " + path + " " + fixture,
        () -> {
          TestServer.Reply reply = TestServer.post(path, Resources.bytes(file));
          assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        });
  }

  @Test
  void offlineExamples() throws IOException {
    Matcher m = OFFLINE.matcher(pages());
    int found = 0;
    while (m.find()) {
      found++;
      try (InputStream in = Files.newInputStream(Resources.projectDir().resolve(m.group(3)))) {
        int exit =
            OfflineHook.run(
                new String[] {m.group(1), m.group(2)},
                in,
                new PrintStream(java.io.OutputStream.nullOutputStream()),
                System.err,
                Catalog.controllers());
        assertThat(exit).as(m.group()).isZero();
      }
    }
    assertThat(found).as("offline examples in the README and docs/").isPositive();
  }
}

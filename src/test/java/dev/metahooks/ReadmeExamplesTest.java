package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.Catalog;
import dev.metahooks.testing.Resources;
import dev.metahooks.testing.TestServer;
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

/** The README's examples run: every {@code curl} of a fixture and every offline call answer 200. */
class ReadmeExamplesTest {
  private static final Pattern CURL = Pattern.compile(
      "--data-binary @(\\S+)\\s*(?:\\\\\\s*)?localhost:8080(/\\S+)");
  private static final Pattern OFFLINE = Pattern.compile(
      "java -jar target/metahooks\\.jar (sync|finalize|customize) (\\S+) < (src/\\S+\\.json)");

  private static String readme() throws IOException {
    return Files.readString(Resources.projectDir().resolve("README.md"));
  }

  @TestFactory
  Stream<DynamicTest> curlExamples() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    Matcher m = CURL.matcher(readme());
    while (m.find()) {
      Path file = Resources.projectDir().resolve(m.group(1));
      String path = m.group(2);
      tests.add(DynamicTest.dynamicTest("curl " + path + " " + m.group(1), () -> {
        TestServer.Reply reply = TestServer.post(path, Resources.bytes(file));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
      }));
    }
    assertThat(tests).as("curl examples in the README").isNotEmpty();
    return tests.stream();
  }

  @Test
  void offlineExamples() throws IOException {
    Matcher m = OFFLINE.matcher(readme());
    int found = 0;
    while (m.find()) {
      found++;
      try (InputStream in = Files.newInputStream(Resources.projectDir().resolve(m.group(3)))) {
        int exit = OfflineHook.run(new String[] {m.group(1), m.group(2)}, in,
            new PrintStream(java.io.OutputStream.nullOutputStream()), System.err, Catalog.controllers());
        assertThat(exit).as(m.group()).isZero();
      }
    }
    assertThat(found).as("offline examples in the README").isPositive();
  }
}

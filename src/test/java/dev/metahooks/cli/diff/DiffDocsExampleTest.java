package dev.metahooks.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testsupport.Resources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every {@code metahooks diff} command shown in docs/diff.md and the README prints what is shown, with its exit code. */
class DiffDocsExampleTest {
  private static final Path PROJECT = Resources.projectDir();
  private static final Pattern BLOCK = Pattern.compile("```console\n(.*?)```", Pattern.DOTALL);
  private static final String COMMAND = "$ java -jar target/metahooks.jar diff ";

  record Example(String args, String output, Integer exitCode) {}

  static List<Example> examples(Path doc) throws Exception {
    List<Example> examples = new ArrayList<>();
    Matcher block = BLOCK.matcher(Files.readString(doc));
    while (block.find()) {
      String text = block.group(1);
      if (!text.startsWith(COMMAND)) {
        continue;
      }
      String first = text.substring(0, text.indexOf('\n'));
      String args = first.substring(COMMAND.length()).replace("; echo \"exit code $?\"", "");
      String rest = text.substring(first.length() + 1);
      Integer exit = null;
      Matcher code = Pattern.compile("exit code (\\d)\n$").matcher(rest);
      if (code.find()) {
        exit = Integer.parseInt(code.group(1));
        rest = rest.substring(0, code.start());
      }
      examples.add(new Example(args, rest, exit));
    }
    return examples;
  }

  private static void check(Path doc, int atLeast) throws Exception {
    List<Example> examples = examples(doc);
    assertThat(examples).as("diff examples in %s", doc).hasSizeGreaterThanOrEqualTo(atLeast);
    for (Example example : examples) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      List<String> args =
          Arrays.stream(example.args().split(" "))
              .map(
                  a ->
                      a.matches("(docs|metacontroller|src)/.*") ? PROJECT.resolve(a).toString() : a)
              .toList();
      int exit =
          DiffCommand.run(
              args,
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      String printed = out.toString(StandardCharsets.UTF_8).replace(PROJECT + "/", "");
      assertThat(printed)
          .as("%s: output of diff %s (stderr: %s)", doc.getFileName(), example.args(), err)
          .isEqualTo(example.output().strip() + "\n".repeat(example.output().isBlank() ? 0 : 1));
      if (example.exitCode() != null) {
        assertThat(exit).as("exit code of diff %s", example.args()).isEqualTo(example.exitCode());
      }
    }
  }

  @Test
  void theDiffPageShowsWhatTheCommandsPrint() throws Exception {
    check(PROJECT.resolve("docs/diff.md"), 5);
  }

  @Test
  void theReadmeShowsWhatTheCommandPrints() throws Exception {
    check(PROJECT.resolve("README.md"), 1);
  }
}

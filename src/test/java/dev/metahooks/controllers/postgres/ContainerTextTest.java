package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.children.backup.Backups;
import dev.metahooks.controllers.postgres.children.backup.LogicalBackups;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.kube.KubeletText;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Every string of every container PostgresCluster renders (command, args, env values; in every golden fixture's
 * answer) reaches the process as intended under the kubelet's rules ({@link Kubelet#expand}): each {@code $} is
 * either written doubled (a literal dollar, which the kubelet reduces to one) or starts a deliberate {@code $(NAME)}
 * reference to a variable the container defines earlier (for env values) or at all (for command and args). So no
 * {@code $} is lost, none is gained and no reference stays unresolved; and every script or SQL text arrives exactly
 * as its file under {@code postgrescluster/}.
 */
class ContainerTextTest {
  private static final Path FIXTURES = Resources.path("fixtures/postgrescluster");
  private static final Path TEXTS = Path.of("src/main/resources/postgrescluster");

  @Test
  void everyRenderedContainerStringArrivesAsWritten() throws IOException {
    Set<String> texts = resourceTexts();
    List<String> problems = new ArrayList<>();
    int containers = 0;
    int scripts = 0;
    for (Path answer : answers()) {
      for (JsonNode child : JsonTrees.MAPPER.readTree(answer.toFile()).path("children")) {
        for (JsonNode container : containers(child)) {
          containers++;
          String where =
              answer.getFileName()
                  + " "
                  + child.path("kind").asText()
                  + "/"
                  + child.at("/metadata/name").asText()
                  + " "
                  + container.path("name").asText();
          scripts += check(where, container, texts, problems);
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(containers).as("containers checked").isGreaterThan(150);
    assertThat(scripts)
        .as("script and SQL arguments checked against their files")
        .isGreaterThan(50);
  }

  @Test
  void aLoneDollarOrAnUndefinedReferenceIsFound() {
    JsonNode container =
        Json.object()
            .put("name", "c")
            .set(
                "command",
                JsonTrees.MAPPER
                    .createArrayNode()
                    .add("echo $HOME")
                    .add("$(UNDEFINED)")
                    .add(KubeletText.literal("$(seq 1 3) $$")));
    List<String> problems = new ArrayList<>();
    check("here", container, Set.of(), problems);
    assertThat(problems)
        .containsExactly(
            "here command[0]: a lone $ at 5 of \"echo $HOME\": the text was not written as a literal",
            "here command[1]: $(UNDEFINED) refers to no variable the container defines");
  }

  /**
   * A parameter value is free text: whatever it holds, including the kubelet's own syntax, every container string
   * passes the rules above and the value reaches Patroni's configuration as it was given.
   */
  @Property(tries = 60)
  void anyParameterValueArrivesAsGiven(@ForAll("values") String value) throws IOException {
    ObjectNode spec = Json.object();
    spec.putObject("postgresql").putObject("parameters").put("work_mem", value);
    ObservedRequests world = new ObservedRequests("pg", spec);
    JsonNode answer = world.sync();
    List<String> problems = new ArrayList<>();
    Set<String> texts = resourceTexts();
    for (JsonNode child : answer.path("children")) {
      for (JsonNode container : containers(child)) {
        check(child.path("kind").asText(), container, texts, problems);
      }
    }
    assertThat(problems).isEmpty();
    JsonNode job =
        world.children.entrySet().stream()
            .filter(e -> e.getKey().startsWith("Job/pg-parameters-"))
            .findFirst()
            .orElseThrow()
            .getValue();
    String patch =
        Kubelet.pod(job.at("/spec/template/spec"))
            .objects(
                List.of(
                    world.children.get("Secret/pg-restapi"),
                    world.children.get("Secret/pg-superuser")))
            .container("parameters")
            .environment()
            .get("PATCH");
    assertThat(JsonTrees.MAPPER.readTree(patch).at("/postgresql/parameters/work_mem").asText())
        .isEqualTo(value);
  }

  @Provide
  Arbitrary<String> values() {
    return Arbitraries.strings().withChars("$()abcXY_ 1").ofMinLength(1).ofMaxLength(24);
  }

  /** Checks one container; returns how many of its arguments were script or SQL files. */
  private static int check(
      String where, JsonNode container, Set<String> texts, List<String> problems) {
    Map<String, String> defined = new LinkedHashMap<>();
    JsonNode env = container.path("env");
    for (int i = 0; i < env.size(); i++) {
      JsonNode value = env.get(i).path("value");
      if (value.isTextual()) {
        problems.addAll(
            dollars(
                where + " env " + env.get(i).path("name").asText(),
                value.asText(),
                defined.keySet()));
      }
      defined.put(env.get(i).path("name").asText(), "<" + env.get(i).path("name").asText() + ">");
    }
    int scripts = 0;
    for (String field : List.of("command", "args")) {
      JsonNode strings = container.path(field);
      for (int i = 0; i < strings.size(); i++) {
        String rendered = strings.get(i).asText();
        problems.addAll(dollars(where + " " + field + "[" + i + "]", rendered, defined.keySet()));
        String received = Kubelet.expand(rendered, defined);
        if (received.startsWith("#!") || received.startsWith("-- ")) {
          scripts++;
          if (!texts.contains(received)) {
            problems.add(
                where
                    + " "
                    + field
                    + "["
                    + i
                    + "]: arrives as a script or SQL text that is no file of "
                    + TEXTS
                    + ": "
                    + received.lines().findFirst().orElse(""));
          }
        }
      }
    }
    return scripts;
  }

  /** Where a rendered string's {@code $} would not arrive as written. */
  private static List<String> dollars(String where, String text, Set<String> defined) {
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) != '$') {
        continue;
      }
      char next = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
      if (next == '$') {
        i++;
      } else if (next == '(' && text.indexOf(')', i) > 0) {
        String name = text.substring(i + 2, text.indexOf(')', i));
        if (!defined.contains(name)) {
          problems.add(where + ": $(" + name + ") refers to no variable the container defines");
        }
        i = text.indexOf(')', i);
      } else {
        problems.add(
            where
                + ": a lone $ at "
                + i
                + " of \""
                + (text.length() > 60 ? text.substring(0, 60) + "…" : text)
                + "\": the text was not written as a literal");
      }
    }
    return problems;
  }

  private static List<JsonNode> containers(JsonNode child) {
    JsonNode pod =
        switch (child.path("kind").asText()) {
          case "CronJob" -> child.at("/spec/jobTemplate/spec/template/spec");
          case "Job", "Deployment", "StatefulSet" -> child.at("/spec/template/spec");
          default -> Json.object();
        };
    List<JsonNode> containers = new ArrayList<>();
    pod.path("initContainers").forEach(containers::add);
    pod.path("containers").forEach(containers::add);
    return containers;
  }

  private static List<Path> answers() throws IOException {
    try (Stream<Path> files = Files.walk(FIXTURES)) {
      return files.filter(f -> f.toString().endsWith(".response.json")).sorted().toList();
    }
  }

  /** The script and SQL files, and the logical backup scripts as they are put together. */
  private static Set<String> resourceTexts() throws IOException {
    Set<String> texts = new TreeSet<>();
    try (Stream<Path> files = Files.walk(TEXTS)) {
      for (Path file :
          files
              .filter(f -> f.toString().endsWith(".sh") || f.toString().endsWith(".sql"))
              .toList()) {
        texts.add(Files.readString(file));
      }
    }
    texts.add(LogicalBackups.BACKUP_SCRIPT);
    texts.add(LogicalBackups.RESTORE_SCRIPT);
    texts.add(Backups.VERIFY_SCRIPT);
    texts.add(Backups.ARCHIVED_SCRIPT);
    texts.add(dev.metahooks.controllers.postgres.children.backup.StoreChecks.SCRIPT);
    return texts;
  }
}

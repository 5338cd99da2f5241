package dev.metahooks.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** FieldReader over a problem list: every problem added with the throwing mode's path and words, and reading on. */
class FieldReaderCollectingTest {
  private static JsonNode json(String text) {
    try {
      return JsonTrees.MAPPER.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(text, e);
    }
  }

  private static FieldReader collecting(String spec, FieldProblems problems) {
    return FieldReader.optional(json(spec), "spec", problems);
  }

  private static List<String> problems(FieldProblems problems) {
    return problems.list().stream().map(FieldProblem::toString).toList();
  }

  /** A read, the spec it reads, what it reads as in the collecting mode, and the one problem it adds. */
  static Stream<Arguments> badReads() {
    return Stream.of(
        bad(
            "object, missing",
            "{}",
            r -> r.object("a").node(),
            Json.object(),
            "spec.a: is required"),
        bad(
            "object, null",
            "{\"a\":null}",
            r -> r.object("a").node(),
            Json.object(),
            "spec.a: is required"),
        bad(
            "object, wrong type",
            "{\"a\":1}",
            r -> r.object("a").node(),
            Json.object(),
            "spec.a: must be an object"),
        bad(
            "optionalObject, wrong type",
            "{\"a\":[]}",
            r -> r.optionalObject("a").map(FieldReader::node),
            Optional.of(Json.object()),
            "spec.a: must be an object"),
        bad(
            "objectOrEmpty, wrong type",
            "{\"a\":\"x\"}",
            r -> r.objectOrEmpty("a").node(),
            Json.object(),
            "spec.a: must be an object"),
        bad("requiredString, missing", "{}", r -> r.requiredString("a"), "", "spec.a: is required"),
        bad(
            "requiredString, empty",
            "{\"a\":\"\"}",
            r -> r.requiredString("a"),
            "",
            "spec.a: must be a non-empty string"),
        bad(
            "requiredString, wrong type",
            "{\"a\":1}",
            r -> r.requiredString("a"),
            "",
            "spec.a: must be a non-empty string"),
        bad(
            "optionalString, wrong type",
            "{\"a\":true}",
            r -> r.optionalString("a"),
            Optional.empty(),
            "spec.a: must be a string"),
        bad(
            "optionalOneOf, not allowed",
            "{\"a\":\"c\"}",
            r -> r.optionalOneOf("a", List.of("x", "y")),
            Optional.empty(),
            "spec.a: must be one of x, y"),
        bad(
            "optionalOneOf, wrong type",
            "{\"a\":false}",
            r -> r.optionalOneOf("a", List.of("x", "y")),
            Optional.empty(),
            "spec.a: must be one of x, y"),
        bad(
            "requiredText, null",
            "{\"a\":null}",
            r -> r.requiredText("a"),
            "",
            "spec.a: is required"),
        bad(
            "requiredText, wrong type",
            "{\"a\":{}}",
            r -> r.requiredText("a"),
            "",
            "spec.a: must be a string"),
        bad(
            "optionalBoolean, wrong type",
            "{\"a\":\"yes\"}",
            r -> r.optionalBoolean("a"),
            Optional.empty(),
            "spec.a: must be true or false"),
        bad(
            "requiredArray, missing",
            "{}",
            r -> r.requiredArray("a").size(),
            0,
            "spec.a: is required"),
        bad(
            "requiredArray, wrong type",
            "{\"a\":{}}",
            r -> r.requiredArray("a").size(),
            0,
            "spec.a: must be an array"),
        bad(
            "optionalArray, wrong type",
            "{\"a\":1}",
            r -> r.optionalArray("a"),
            Optional.empty(),
            "spec.a: must be an array"),
        bad(
            "requiredObjects, wrong type",
            "{\"a\":1}",
            r -> r.requiredObjects("a"),
            List.of(),
            "spec.a: must be an array"),
        bad(
            "optionalObjects, wrong type",
            "{\"a\":\"x\"}",
            r -> r.optionalObjects("a"),
            List.of(),
            "spec.a: must be an array"),
        bad(
            "optionalObjects, bad item",
            "{\"a\":[{\"n\":1},2]}",
            r -> r.optionalObjects("a").stream().map(FieldReader::node).toList(),
            List.of(json("{\"n\":1}"), Json.object()),
            "spec.a[1]: must be an object"),
        bad(
            "requiredStringList, missing",
            "{}",
            r -> r.requiredStringList("a"),
            List.of(),
            "spec.a: is required"),
        bad(
            "requiredStringList, wrong type",
            "{\"a\":\"x\"}",
            r -> r.requiredStringList("a"),
            List.of(),
            "spec.a: must be a list of strings"),
        bad(
            "optionalStringList, bad item keeps the indices",
            "{\"a\":[\"x\",7,\"z\"]}",
            r -> r.optionalStringList("a"),
            List.of("x", "", "z"),
            "spec.a[1]: must be a non-empty string"),
        bad(
            "optionalInteger, fraction",
            "{\"a\":1.5}",
            r -> r.optionalInteger("a"),
            Optional.empty(),
            "spec.a: must be an integer"),
        bad(
            "optionalInteger, string",
            "{\"a\":\"3\"}",
            r -> r.optionalInteger("a"),
            Optional.empty(),
            "spec.a: must be an integer"),
        bad(
            "optionalInteger, too large for a long",
            "{\"a\":1e30}",
            r -> r.optionalInteger("a"),
            Optional.empty(),
            "spec.a: must be an integer"),
        bad(
            "optionalInteger bounded, fraction",
            "{\"a\":2.5}",
            r -> r.optionalInteger("a", 0, 16),
            Optional.empty(),
            "spec.a: must be an integer"),
        bad(
            "optionalInteger bounded, out of range",
            "{\"a\":17}",
            r -> r.optionalInteger("a", 0, 16),
            Optional.empty(),
            "spec.a: must be between 0 and 16"),
        bad(
            "optionalInteger bounded, far out of range",
            "{\"a\":1e30}",
            r -> r.optionalInteger("a", 0, 16),
            Optional.empty(),
            "spec.a: must be between 0 and 16"),
        bad(
            "requiredStringMap, wrong value",
            "{\"a\":{\"k\":1}}",
            r -> r.requiredStringMap("a"),
            Json.object(),
            "spec.a['k']: must be a string"),
        bad(
            "requiredLabelSelector, missing",
            "{}",
            r -> r.requiredLabelSelector("a"),
            Json.object(),
            "spec.a: is required"),
        bad(
            "requiredLabelSelector, bad field",
            "{\"a\":{\"matchLabel\":{}}}",
            r -> r.requiredLabelSelector("a"),
            Json.object(),
            "spec.a.matchLabel: is not a label selector field (matchLabels, matchExpressions)"),
        bad(
            "optionalLabelSelector, wrong type",
            "{\"a\":[]}",
            r -> r.optionalLabelSelector("a"),
            Optional.empty(),
            "spec.a: must be a label selector (an object)"),
        bad(
            "report, a rule of the caller's own",
            "{\"a\":\"x\"}",
            r -> {
              r.report("a", "must not be x");
              return null;
            },
            null,
            "spec.a: must not be x"));
  }

  private static Arguments bad(
      String name,
      String spec,
      Function<FieldReader, Object> read,
      Object readsAs,
      String problem) {
    return Arguments.of(name, spec, read, readsAs, problem);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badReads")
  void aBadFieldIsAddedAndReadsAsEmpty(
      String name,
      String spec,
      Function<FieldReader, Object> read,
      Object readsAs,
      String problem) {
    FieldProblems problems = FieldProblems.collecting();
    assertThat(read.apply(collecting(spec, problems))).isEqualTo(readsAs);
    assertThat(problems(problems)).containsExactly(problem);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badReads")
  void theThrowingModeSaysTheSameWords(
      String name,
      String spec,
      Function<FieldReader, Object> read,
      Object readsAs,
      String problem) {
    assertThatThrownBy(() -> read.apply(FieldReader.optional(json(spec), "spec")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage(problem);
  }

  @Test
  void goodFieldsReadAsInTheThrowingModeAndAddNothing() {
    FieldProblems problems = FieldProblems.collecting();
    FieldReader spec =
        collecting(
            "{\"s\":\"a\",\"t\":\"\",\"b\":false,\"e\":\"y\",\"n\":3.0,\"l\":[\"x\"],"
                + "\"o\":{\"p\":{\"q\":1}},\"items\":[{\"k\":\"v\"}],\"m\":{\"k\":\"v\"},\"sel\":{\"matchLabels\":{\"a\":\"b\"}}}",
            problems);
    assertThat(spec.requiredString("s")).isEqualTo("a");
    assertThat(spec.requiredText("t")).isEmpty();
    assertThat(spec.optionalString("t")).contains("");
    assertThat(spec.optionalBoolean("b")).contains(false);
    assertThat(spec.optionalOneOf("e", List.of("x", "y"))).contains("y");
    assertThat(spec.optionalInteger("n")).contains(3L);
    assertThat(spec.optionalInteger("n", 3, 3)).contains(3L);
    assertThat(spec.requiredStringList("l")).containsExactly("x");
    assertThat(spec.optionalStringList("l")).containsExactly("x");
    assertThat(spec.object("o").object("p").optionalInteger("q")).contains(1L);
    assertThat(spec.optionalObjects("items").get(0).requiredString("k")).isEqualTo("v");
    assertThat(spec.requiredStringMap("m")).isEqualTo(Json.object().put("k", "v"));
    assertThat(spec.requiredLabelSelector("sel").path("matchLabels").path("a").asText())
        .isEqualTo("b");
    assertThat(problems.isEmpty()).isTrue();
    assertThat(problems.list()).isEmpty();
  }

  @Test
  void absentAndNullOptionalFieldsAreNotProblems() {
    FieldProblems problems = FieldProblems.collecting();
    FieldReader spec = collecting("{\"z\":null}", problems);
    for (String field : List.of("missing", "z")) {
      assertThat(spec.isSet(field)).isFalse();
      assertThat(spec.optionalObject(field)).isEmpty();
      assertThat(spec.objectOrEmpty(field).node()).isEqualTo(Json.object());
      assertThat(spec.optionalString(field)).isEmpty();
      assertThat(spec.optionalOneOf(field, List.of("x"))).isEmpty();
      assertThat(spec.optionalBoolean(field)).isEmpty();
      assertThat(spec.optionalArray(field)).isEmpty();
      assertThat(spec.optionalObjects(field)).isEmpty();
      assertThat(spec.optionalStringList(field)).isEmpty();
      assertThat(spec.optionalInteger(field)).isEmpty();
      assertThat(spec.optionalInteger(field, 0, 1)).isEmpty();
      assertThat(spec.optionalLabelSelector(field)).isEmpty();
    }
    assertThat(spec.has("z")).isTrue();
    assertThat(problems.list()).isEmpty();
  }

  @Test
  void readsOnAfterAProblemAndKeepsTheOrderFound() {
    FieldProblems problems = FieldProblems.collecting();
    FieldReader spec =
        collecting(
            "{\"instances\":\"3\",\"users\":[{\"name\":\"a\",\"databases\":[\"x\",\"\"]},"
                + "\"b\",{\"options\":5}],\"template\":{\"metadata\":{\"labels\":{\"app.kubernetes.io/name\":1}}}}",
            problems);
    assertThat(spec.optionalInteger("instances", 0, 16)).isEmpty();
    List<FieldReader> users = spec.optionalObjects("users");
    assertThat(users).hasSize(3);
    assertThat(users.get(0).optionalStringList("databases")).containsExactly("x", "");
    assertThat(users.get(1).requiredString("name")).isEmpty();
    assertThat(users.get(2).optionalStringList("options")).isEmpty();
    assertThat(spec.object("template").object("metadata").requiredStringMap("labels"))
        .isEqualTo(Json.object());
    assertThat(problems(problems))
        .containsExactly(
            "spec.instances: must be an integer",
            "spec.users[1]: must be an object",
            "spec.users[0].databases[1]: must be a non-empty string",
            "spec.users[1].name: is required",
            "spec.users[2].options: must be a list of strings",
            "spec.template.metadata.labels['app.kubernetes.io/name']: must be a string");
  }

  @Test
  void aWrongSpecReadsAsEmptySoItsRequiredFieldsAreNamedToo() {
    FieldProblems problems = FieldProblems.collecting();
    ObjectNode parent = Json.object();
    parent.put("spec", "x");
    FieldReader spec = FieldReader.spec(parent, problems);
    assertThat(spec.requiredString("image")).isEmpty();
    assertThat(problems(problems))
        .containsExactly("parent.spec: must be an object", "parent.spec.image: is required");
    assertThat(FieldReader.of(null, "object", problems).path("x", 2)).isEqualTo("object.x[2]");
    assertThat(problems.size()).isEqualTo(3);
  }

  @Test
  void problemsAddedByHandGoWhereTheReadersGo() {
    FieldProblems problems = FieldProblems.collecting();
    FieldReader spec = collecting("{}", problems);
    problems.add("metadata.name", "is too long");
    spec.report("example.com/x", "is not allowed");
    assertThat(spec.problems()).isSameAs(problems);
    assertThat(problems(problems))
        .containsExactly("metadata.name: is too long", "spec['example.com/x']: is not allowed");
    assertThat(problems.list()).isUnmodifiable();
  }

  /** The example of docs/writing-a-controller.md and of FieldReader's javadoc. */
  @Test
  void theDocumentedExampleSaysWhatItsCommentSays() {
    ObjectNode parent = Json.object();
    parent.putObject("spec").put("instances", 17).put("paused", "no");
    FieldProblems problems = FieldProblems.collecting();
    FieldReader spec = FieldReader.spec(parent, problems);
    assertThat(spec.optionalInteger("instances", 0, 16).orElse(1L)).isEqualTo(1L);
    assertThat(problems.list().toString())
        .isEqualTo("[parent.spec.instances: must be between 0 and 16]");

    problems = FieldProblems.collecting();
    spec = FieldReader.optional(parent.get("spec"), "spec", problems);
    int instances = spec.optionalInteger("instances", 0, 16).orElse(1L).intValue();
    boolean paused = spec.optionalBoolean("paused").orElse(false);
    assertThat(instances).isEqualTo(1);
    assertThat(paused).isFalse();
    assertThat(problems.list().toString())
        .isEqualTo(
            "[spec.instances: must be between 0 and 16, spec.paused: must be true or false]");
  }
}

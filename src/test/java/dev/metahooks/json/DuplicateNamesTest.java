package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParseException;
import dev.metahooks.api.Json;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A name twice in one object is refused wherever the parse builds it; in a part of an observed object that the
 * hook does not read (skipped), it is not looked for (RequestReader says why); the same name elsewhere is no
 * duplicate.
 */
class DuplicateNamesTest {
  private static final Projection PODS = Projection.NONE.reading("Pod.v1", "status.phase");

  private static String pod(String inside) {
    return "{\"children\": {\"Pod.v1\": {\"p\": {\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\":"
        + " \"p\"}, "
        + inside
        + "}}}}";
  }

  /** An object of {@code n} fields f0, f1, ..., with {@code extra} written after them. */
  private static String wide(int n, String extra) {
    return IntStream.range(0, n)
        .mapToObj(i -> "\"f" + i + "\": " + i)
        .collect(Collectors.joining(", ", "{", extra + "}"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"parent\": {}, \"parent\": {}}",
        "{\"parent\": {\"spec\": {\"a\": 1, \"b\": [{\"x\": 1, \"x\": 2}]}}}",
        "{\"parent\": {\"spec\": {\"a\": 1, \"b\": 2, \"a\": 3}}}",
      })
  void refusedInAWholeParseAndInAProjectedOne(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Json.parse(bytes))
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("Duplicate field '");
    assertThatThrownBy(() -> JsonTrees.parse(bytes, PODS))
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("Duplicate field '");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"status\": {\"phase\": \"Running\", \"phase\": \"Failed\"}", // in a kept part
        "\"status\": {\"phase\": \"Running\"}, \"status\": {}", // a kept object twice
        "\"metadata\": {\"name\": \"q\"}", // the identity, always kept
      })
  void refusedInTheKeptPartsOfObservedObjects(String inside) {
    byte[] bytes = pod(inside).getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> JsonTrees.parse(bytes, PODS))
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("Duplicate field '");
    assertThatThrownBy(() -> Json.parse(bytes))
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("Duplicate field '");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"spec\": {\"containers\": [{\"name\": \"a\", \"image\": \"x\", \"name\": \"b\"}]}", // in
        // a
        // skipped part
        "\"spec\": {}, \"spec\": {}", // a skipped field twice
        "\"status\": {\"phase\": \"Running\", \"hostIP\": \"a\", \"hostIP\": \"b\"}", // skipped
        // beside kept
      })
  void passedOverInTheSkippedPartsOfObservedObjectsAndRefusedWhenTheyAreBuilt(String inside)
      throws Exception {
    byte[] bytes = pod(inside).getBytes(StandardCharsets.UTF_8);
    assertThat(JsonTrees.parse(bytes, PODS).at("/children/Pod.v1/p/metadata/name").textValue())
        .isEqualTo("p");
    assertThatThrownBy(() -> Json.parse(bytes))
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("Duplicate field '");
    assertThatThrownBy(
            () -> JsonTrees.parse(bytes, Projection.NONE.reading("Pod.v1", "spec", "status")))
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("Duplicate field '");
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 15, 16, 17, 40})
  void refusedInObjectsOfManyFieldsWhereverTheSecondOneIs(int fields) {
    for (String extra : new String[] {", \"f0\": 9", ", \"f" + (fields - 1) + "\": 9"}) {
      String inside = "\"status\": " + wide(fields, extra) + ", \"spec\": " + wide(fields, "");
      byte[] bytes = pod(inside).getBytes(StandardCharsets.UTF_8);
      assertThatThrownBy(() -> JsonTrees.parse(bytes, Projection.NONE.reading("Pod.v1", "status")))
          .as(extra)
          .hasMessageContaining("Duplicate field 'f");
      assertThatThrownBy(() -> Json.parse(bytes))
          .as(extra)
          .hasMessageContaining("Duplicate field 'f");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 16, 17, 40})
  void theSameNameInSiblingObjectsAndAtOtherLevelsIsNoDuplicate(int fields) throws Exception {
    String inside =
        "\"spec\": {\"spec\": "
            + wide(fields, "")
            + ", \"list\": ["
            + wide(fields, "")
            + ", "
            + wide(fields, "")
            + "], \"f0\": "
            + wide(fields, "")
            + "}, \"status\": "
            + wide(fields, ", \"phase\": \"x\"");
    byte[] bytes = pod(inside).getBytes(StandardCharsets.UTF_8);
    assertThat(Json.parse(bytes).at("/children/Pod.v1/p/spec/f0/f1").intValue()).isEqualTo(1);
    assertThat(JsonTrees.parse(bytes, PODS).at("/children/Pod.v1/p/status/phase").textValue())
        .isEqualTo("x");
  }
}

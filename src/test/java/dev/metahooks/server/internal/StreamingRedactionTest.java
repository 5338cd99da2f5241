package dev.metahooks.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Resources;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A recording streamed object by object is redacted exactly as the whole tree would be. */
class StreamingRedactionTest {
  static Stream<Path> bodies() {
    return Stream.of("fixtures", "upstream-answers")
        .flatMap(
            dir ->
                Stream.concat(
                    Resources.find(Resources.path(dir), ".request.json").stream(),
                    Resources.find(Resources.path(dir), ".response.json").stream()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodies")
  void streamedAsTheTreeIsRedacted(Path file) throws Exception {
    byte[] body = Resources.bytes(file);
    JsonNode whole = JsonTrees.MAPPER.readTree(body);
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    try (JsonParser in = JsonTrees.MAPPER.getFactory().createParser(body);
        JsonGenerator out = JsonTrees.MAPPER.getFactory().createGenerator(streamed)) {
      StreamingRedaction.copy(in, out, Redaction.Replacement.mask(true));
    }
    assertThat(JsonTrees.MAPPER.readTree(streamed.toByteArray()))
        .isEqualTo(Redaction.redactSecretsReplayable(whole));
  }

  @ParameterizedTest
  @MethodSource("secretsEverywhere")
  void secretsInGroupsArraysAndAsTheParentAreRedacted(String body) throws Exception {
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    try (JsonParser in = JsonTrees.MAPPER.getFactory().createParser(body);
        JsonGenerator out = JsonTrees.MAPPER.getFactory().createGenerator(streamed)) {
      StreamingRedaction.copy(in, out, Redaction.Replacement.mask(true));
    }
    assertThat(streamed.toString())
        .doesNotContain("c2VjcmV0LXZhbHVl")
        .contains(Redaction.REDACTED_BASE64);
  }

  static List<String> secretsEverywhere() {
    String secret =
        "{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"metadata\": {\"name\": \"s\"},"
            + " \"data\": {\"password\": \"c2VjcmV0LXZhbHVl\"}}";
    String kindless =
        "{\"metadata\": {\"name\": \"s\"}, \"data\": {\"password\": \"c2VjcmV0LXZhbHVl\"}}";
    return List.of(
        "{\"object\": " + secret + "}",
        "{\"children\": [" + secret + "]}",
        "{\"children\": {\"Secret.v1\": {\"s\": " + kindless + "}}}",
        "{\"related\": {\"Secret.v1\": {\"ns/s\": " + kindless + "}}}",
        "{\"parent\": {\"spec\": {\"template\": " + secret + "}}}");
  }
}

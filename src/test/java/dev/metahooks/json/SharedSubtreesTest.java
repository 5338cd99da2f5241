package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.PathCopies;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A subtree shared by children is written once per answer and copied where it recurs, with the bytes Jackson
 * writes for the same tree; what one child owns is its own in the bytes too.
 */
class SharedSubtreesTest {
  private static final ObjectMapper SPLICING = SharedSubtrees.writing(JsonTrees.MAPPER);

  /** A value that counts how often it is written. */
  static final class Counted extends JsonSerializable.Base {
    int written;

    @Override
    public void serialize(JsonGenerator generator, SerializerProvider provider) throws IOException {
      written++;
      generator.writeString("nginx:1.27 \u00e9\u4e2d \"quoted\" \\ </script>");
    }

    @Override
    public void serializeWithType(
        JsonGenerator generator, SerializerProvider provider, TypeSerializer types)
        throws IOException {
      serialize(generator, provider);
    }
  }

  @Test
  void aSubtreeHeldByManyChildrenIsWrittenTwiceAndCopiedElsewhere() throws Exception {
    Counted image = new Counted();
    ObjectNode template = Json.object();
    template.putObject("metadata").putObject("labels").put("app", "web");
    ObjectNode container = Json.object().put("name", "c").putPOJO("image", image);
    template
        .putObject("spec")
        .putArray("containers")
        .add(container)
        .add(Json.object().putNull("n"));
    template.withObject("/spec").putArray("empty");
    template.withObject("/spec").putObject("none");
    List<ObjectNode> pods = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      ObjectNode pod = PathCopies.of("v1", "Pod", template);
      PathCopies.object(pod, "metadata").put("name", "web-" + i);
      pods.add(pod);
    }
    Map<String, Object> answer =
        new LinkedHashMap<>(); // the container alone first, then inside every Pod's spec
    answer.put("status", Json.object().set("first", container));
    answer.put("children", pods);

    String spliced =
        SPLICING.writeValueAsString(
            answer); // a writer of characters: Jackson's own code throughout
    byte[] bytes = SPLICING.writeValueAsBytes(answer);

    assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(spliced)
        .isEqualTo(JsonTrees.MAPPER.writeValueAsString(answer));
    image.written = 0;
    SPLICING.writeValueAsBytes(answer);
    assertThat(image.written).as("the first time, and once for the copy").isEqualTo(2);
  }

  @Test
  void aChangeToOneChildNeverReachesAnother() throws Exception {
    ObjectNode template =
        (ObjectNode)
            JsonTrees.MAPPER.readTree(
                "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"a\"}]}}");
    List<ObjectNode> pods = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      pods.add(PathCopies.of("v1", "Pod", template));
    }
    // The third Pod owns its spec, its containers and its first container, and changes the image.
    ObjectNode own =
        PathCopies.object(
            PathCopies.array(PathCopies.object(pods.get(2), "spec"), "containers"), 0);
    own.put("image", "b");
    // The fourth holds an equal copy of the shared node, not the node itself.
    pods.get(3).set("spec", template.get("spec").deepCopy());

    ArrayNode written = (ArrayNode) JsonTrees.MAPPER.readTree(SPLICING.writeValueAsBytes(pods));

    for (int i = 0; i < 5; i++) {
      assertThat(written.get(i).at("/spec/containers/0/image").asText())
          .as("Pod %d", i)
          .isEqualTo(i == 2 ? "b" : "a");
    }
    assertThat(SPLICING.writeValueAsString(pods))
        .isEqualTo(JsonTrees.MAPPER.writeValueAsString(pods));
    assertThat(template.at("/spec/containers/0/image").asText()).isEqualTo("a");
  }

  @Test
  void eachAnswerMakesItsOwnCopies() throws Exception {
    ObjectNode shared = Json.object().put("v", 1);
    List<ObjectNode> children =
        List.of(
            Json.object().set("s", shared),
            Json.object().set("s", shared),
            Json.object().set("s", shared));
    assertThat(SPLICING.writeValueAsString(children))
        .isEqualTo("[{\"s\":{\"v\":1}},{\"s\":{\"v\":1}},{\"s\":{\"v\":1}}]");

    shared.put("v", 2); // a later answer's tree: nothing of the first answer's bytes is kept

    assertThat(
            new String(
                SPLICING.writeValueAsBytes(children), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("[{\"s\":{\"v\":2}},{\"s\":{\"v\":2}},{\"s\":{\"v\":2}}]");
  }

  @Test
  void jacksonsOwnNodesAndOtherConfigurationsAlike() throws Exception {
    ObjectNode shared =
        JsonNodeFactory.instance
            .objectNode()
            .put("b", 2)
            .put("a", 1)
            .putNull("z")
            .put("t", "\u00e9 \u2028");
    shared.putArray("e");
    ObjectNode other = JsonNodeFactory.instance.objectNode();
    List<ObjectNode> children =
        List.of(
            other.set("x", shared), Json.object().set("y", shared), Json.object().set("x", shared));
    assertThat(
            new String(
                SPLICING.writeValueAsBytes(children), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(JsonTrees.MAPPER.writeValueAsString(children));
    for (ObjectMapper configured :
        List.of(
            JsonTrees.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT),
            JsonTrees.MAPPER
                .copy()
                .configure(
                    com.fasterxml.jackson.databind.cfg.JsonNodeFeature.WRITE_PROPERTIES_SORTED,
                    true),
            JsonTrees.MAPPER.copy().disable(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS),
            JsonTrees.MAPPER
                .copy()
                .enable(com.fasterxml.jackson.core.JsonGenerator.Feature.ESCAPE_NON_ASCII))) {
      ObjectMapper splicing = SharedSubtrees.writing(configured);
      assertThat(splicing.writeValueAsBytes(children))
          .isEqualTo(configured.writeValueAsBytes(children));
    }
  }
}

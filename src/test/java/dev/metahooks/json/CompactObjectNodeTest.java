package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Objects written from their compact fields give the bytes Jackson's own object node gives. */
class CompactObjectNodeTest {
  private static final ObjectMapper PLAIN = new ObjectMapper();

  @Test
  void everyStoredRequestIsWrittenAsJacksonWritesIt() throws Exception {
    int compared = 0;
    for (Path file : Resources.find(Resources.ROOT, ".json")) {
      JsonNode compact;
      try {
        compact = Json.parse(Resources.bytes(file));
      } catch (Exception refused) {
        continue; // a regression body the parser refuses
      }
      JsonNode plain = PLAIN.readTree(Resources.bytes(file));
      assertThat(JsonTrees.MAPPER.writeValueAsString(compact))
          .as(file.toString())
          .isEqualTo(PLAIN.writeValueAsString(plain));
      compared++;
    }
    assertThat(compared).isGreaterThan(500);
  }

  @Test
  void smallAndLargeObjectsAndEveryOtherConfigurationAlike() throws Exception {
    StringBuilder wide = new StringBuilder("{");
    for (int i = 0; i < 40; i++) {
      wide.append(i == 0 ? "" : ",")
          .append("\"k")
          .append(40 - i)
          .append("\":{\"n\":null,\"a\":[],\"v\":")
          .append(i)
          .append('}');
    }
    String text = wide.append('}').toString();
    JsonNode compact = Json.parse(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(compact).isInstanceOf(CompactObjectNode.class);
    assertThat(JsonTrees.MAPPER.writeValueAsString(compact)).isEqualTo(text);
    ObjectMapper sortedWithoutNulls =
        JsonMapper.builder()
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .disable(JsonNodeFeature.WRITE_NULL_PROPERTIES)
            .build();
    assertThat(sortedWithoutNulls.writeValueAsString(compact))
        .isEqualTo(sortedWithoutNulls.writeValueAsString(PLAIN.readTree(text)));
  }
}

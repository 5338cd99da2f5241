package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The compact field map behaves as the LinkedHashMap it replaces, small and after it has grown large. */
class CompactFieldsTest {
  @Test
  void randomOperationsMatchALinkedHashMap() {
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      CompactFields compact = new CompactFields();
      Map<String, JsonNode> expected = new LinkedHashMap<>();
      int keys = 1 + random.nextInt(random.nextBoolean() ? 6 : 40);
      for (int step = 0; step < 200; step++) {
        String key = "k" + random.nextInt(keys);
        JsonNode value = IntNode.valueOf(random.nextInt(1000));
        switch (random.nextInt(9)) {
          case 0, 1, 2, 3 ->
              assertThat(compact.put(key, value)).isEqualTo(expected.put(key, value));
          case 4 -> assertThat(compact.remove(key)).isEqualTo(expected.remove(key));
          case 5 -> {
            Iterator<Map.Entry<String, JsonNode>> it = compact.entrySet().iterator();
            Iterator<Map.Entry<String, JsonNode>> ex = expected.entrySet().iterator();
            while (it.hasNext()) {
              Map.Entry<String, JsonNode> a = it.next();
              Map.Entry<String, JsonNode> b = ex.next();
              assertThat(a).isEqualTo(b);
              if (random.nextInt(4) == 0) {
                it.remove();
                ex.remove();
              } else if (random.nextInt(4) == 0) {
                assertThat(a.setValue(value)).isEqualTo(b.setValue(value));
              }
            }
            assertThat(ex.hasNext()).isFalse();
          }
          case 6 ->
              assertThat(compact.keySet().remove(key)).isEqualTo(expected.keySet().remove(key));
          case 7 -> {
            if (random.nextInt(20) == 0) {
              compact.clear();
              expected.clear();
            }
          }
          default -> assertThat(compact.get(key)).isEqualTo(expected.get(key));
        }
        assertThat(compact.size()).isEqualTo(expected.size());
        assertThat(new ArrayList<>(compact.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
        assertThat(compact).isEqualTo(expected);
        assertThat(compact.hashCode()).isEqualTo(expected.hashCode());
        assertThat(compact.containsKey(key)).isEqualTo(expected.containsKey(key));
      }
    }
  }

  @Test
  void aChangeWhileIteratingFailsFast() {
    CompactFields compact = new CompactFields();
    compact.put("a", IntNode.valueOf(1));
    compact.put("b", IntNode.valueOf(2));
    Iterator<Map.Entry<String, JsonNode>> it = compact.entrySet().iterator();
    it.next();
    compact.put("c", IntNode.valueOf(3));
    assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
  }

  @Test
  void parsedObjectsUseItAndReadTheSame() throws Exception {
    String text =
        "{\"b\": 1, \"a\": {\"x\": [1, 2, {}], \"y\": \"True\", \"z\": \"True\"}, \"c\": null, \"d\": 1.5,"
            + " \"e\": 12345678901, \"f\": 123456789012345678901234567890}";
    JsonNode parsed =
        Json.parse((text + " ".repeat(16 * 1024 * 1024)).getBytes()); // large: strings shared
    JsonNode plain = new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    assertThat(parsed).isEqualTo(plain);
    assertThat(plain).isEqualTo(parsed);
    assertThat(parsed.toString()).isEqualTo(plain.toString());
    assertThat(JsonTrees.MAPPER.writeValueAsString(parsed)).isEqualTo(plain.toString());
    assertThat(parsed.at("/a/y")).isSameAs(parsed.at("/a/z")); // shared within one parse
    assertThat(parsed.get("e").isLong()).isEqualTo(plain.get("e").isLong());
    assertThat(parsed.get("f").isBigInteger()).isTrue();
    assertThat(parsed.get("d").isDouble()).isTrue();

    ObjectNode copy = ((ObjectNode) parsed).deepCopy();
    ((ObjectNode) copy.get("a")).put("y", "False");
    assertThat(parsed.at("/a/y").asText()).isEqualTo("True");
  }

  @Test
  void manyFieldsKeepTheirOrder() {
    ObjectNode object = Json.object();
    List<String> names = new ArrayList<>();
    for (int i = 40; i > 0; i--) {
      object.put("f" + i, i);
      names.add("f" + i);
    }
    object.remove("f20");
    names.remove("f20");
    object.put("f20", 0);
    names.add("f20");
    assertThat(object.fieldNames()).toIterable().containsExactlyElementsOf(names);
  }
}

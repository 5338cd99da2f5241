package dev.metahooks.testsupport;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static dev.metahooks.testsupport.JsonLiteral.sameJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import java.util.Comparator;
import org.junit.jupiter.api.Test;

class JsonLiteralTest {
  private static final Comparator<JsonNode> SAME = sameJson();

  @Test
  void aTreeEqualsTheLiteralWhateverTheOrderOfItsKeys() {
    ObjectNode built = JsonTrees.MAPPER.createObjectNode().put("b", "2").put("a", "1");
    assertThat(built).isEqualTo(json("{\"a\":\"1\",\"b\":\"2\"}"));
    assertThat(built).isNotEqualTo(json("{\"a\":\"1\",\"b\":\"3\"}"));
  }

  @Test
  void sameJsonComparesNumbersByValueAndStillTellsValuesApart() {
    ObjectNode built = JsonTrees.MAPPER.createObjectNode();
    built.putObject("lag").put("bytes", 67108864L).put("member", "orders-2");
    assertThat(built).isNotEqualTo(json("{\"lag\":{\"member\":\"orders-2\",\"bytes\":67108864}}"));
    assertThat(SAME.compare(built, json("{\"lag\":{\"member\":\"orders-2\",\"bytes\":67108864}}")))
        .isZero();
    assertThat(SAME.compare(built, json("{\"lag\":{\"member\":\"orders-2\",\"bytes\":67108865}}")))
        .isNotZero();
    assertThat(SAME.compare(built, json("{\"lag\":{\"member\":\"orders-1\",\"bytes\":67108864}}")))
        .isNotZero();
    assertThat(SAME.compare(built, json("{\"lag\":{\"bytes\":67108864}}"))).isNotZero();
    assertThat(SAME.compare(json("[1,2]"), json("[2,1]"))).isNotZero();
  }
}

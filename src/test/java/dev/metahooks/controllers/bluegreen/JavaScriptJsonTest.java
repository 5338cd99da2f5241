package dev.metahooks.controllers.bluegreen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JavaScriptJsonTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "-0.0, 0",
    "3, 3",
    "1.0, 1",
    "-42, -42",
    "0.5, 0.5",
    "0.000001, 0.000001",
    "0.0000001, 1e-7",
    "1.5e-7, 1.5e-7",
    "123456789012, 123456789012",
    "1e21, 1e+21",
    "1.25e21, 1.25e+21",
    "100, 100",
    "9007199254740993, 9007199254740992",
    "1e300, 1e+300"
  })
  void numbersAsJavaScriptPrintsThem(String json, String expected) throws Exception {
    assertThat(JavaScriptJson.stringify(JsonTrees.MAPPER.readTree(json))).isEqualTo(expected);
  }

  @Test
  void keepsKeyOrderAndWritesCompactly() throws Exception {
    String text = "{\"b\":1,\"a\":[true,null,{\"z\":\"x\",\"y\":2.5}],\"c\":{}}";
    assertThat(JavaScriptJson.stringify(JsonTrees.MAPPER.readTree(text))).isEqualTo(text);
  }

  @Test
  void escapesOnlyWhatJavaScriptEscapes() {
    String raw = "q\" b\\ n\n t\t u\u0001 é ✓ 数 / \u2028 \ud83d\ude00 \ud800";
    assertThat(JavaScriptJson.stringify(JsonTrees.MAPPER.getNodeFactory().textNode(raw)))
        .isEqualTo("\"q\\\" b\\\\ n\\n t\\t u\\u0001 é ✓ 数 / \u2028 \ud83d\ude00 \\ud800\"");
  }
}

package dev.metahooks.controllers.catset;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsValuesTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0 | 0",
        "7 | 7",
        "1e20 | 100000000000000000000",
        "1e21 | 1e+21",
        "1152921504606846976 | 1152921504606847000",
        "9007199254740993 | 9007199254740992",
        "0.1 | 0.1",
        "2.5 | 2.5",
        "1e-7 | 1e-7",
        "0.000001 | 0.000001",
        "1.5e300 | 1.5e+300",
        "-3 | -3"
      })
  void printsNumbersAsJavaScriptDoes(double value, String expected) {
    assertThat(JsValues.numberToString(value)).isEqualTo(expected);
  }

  @Test
  void printsNonFiniteNumbers() {
    assertThat(JsValues.numberToString(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
    assertThat(JsValues.numberToString(-0.0)).isEqualTo("0");
  }

  @Test
  void truthinessFollowsJavaScript() {
    for (String falsy : new String[] {"null", "false", "0", "0.0", "\"\""}) {
      assertThat(JsValues.truthy(json(falsy))).as(falsy).isFalse();
    }
    for (String truthy : new String[] {"true", "1", "-1", "\"0\"", "\" \"", "[]", "{}"}) {
      assertThat(JsValues.truthy(json(truthy))).as(truthy).isTrue();
    }
    assertThat(JsValues.truthy(null)).isFalse();
  }

  @Test
  void copyKeepsNumbersAsJavaScriptHoldsThem() {
    JsonNode copy =
        JsValues.copy(json("{\"a\":1.0,\"b\":[80,12345678901234567890],\"c\":\"x\",\"d\":null}"));
    assertThat(copy.get("a").isInt()).isTrue();
    assertThat(copy.get("a").intValue()).isEqualTo(1);
    assertThat(copy.get("b").get(0).isInt()).isTrue();
    assertThat(copy.get("b").get(1).doubleValue()).isEqualTo(12345678901234567890.0);
    assertThat(copy.get("c").textValue()).isEqualTo("x");
    assertThat(copy.get("d").isNull()).isTrue();
  }

  private static JsonNode json(String text) {
    try {
      return JsonTrees.MAPPER.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}

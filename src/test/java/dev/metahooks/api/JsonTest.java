package dev.metahooks.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.metahooks.PublicApiTest;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The server's mapper cannot be reached: users get its immutable reader and writer, or a copy. */
class JsonTest {
  @Test
  void configuringTheCopyChangesNothingTheServerWrites() throws Exception {
    Map<String, Integer> value = new TreeMap<>(Map.of("a", 1));
    ObjectMapper mine = Json.mapper();
    mine.enable(SerializationFeature.INDENT_OUTPUT);
    assertThat(mine.writeValueAsString(value)).contains("\n");
    assertThat(Json.writer().writeValueAsString(value)).isEqualTo("{\"a\":1}");
    assertThat(Json.mapper()).isNotSameAs(mine);
  }

  @Test
  void noPublicFieldOrMethodOfThePublicApiHandsOutAMutableMapper() {
    for (Class<?> type : PublicApiTest.publicApiClasses()) {
      for (Field field : type.getFields()) {
        assertThat(ObjectMapper.class.isAssignableFrom(field.getType()))
            .as("%s.%s", type.getName(), field.getName())
            .isFalse();
      }
      for (Method method : type.getMethods()) {
        if (ObjectMapper.class.isAssignableFrom(method.getReturnType())
            && Modifier.isStatic(method.getModifiers())) {
          assertThat(type.getName() + "." + method.getName())
              .as("only Json.mapper(), a copy")
              .isEqualTo("dev.metahooks.api.Json.mapper");
        }
      }
    }
    assertThat(Arrays.stream(Json.class.getFields()).map(Field::getName)).doesNotContain("MAPPER");
  }

  @Test
  void theReaderRefusesWhatTheServerRefuses() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Json.reader().readTree("{\"a\":1,\"a\":2}"))
        .hasMessageContaining("Duplicate field 'a'");
  }

  @Test
  void theNodeFactoryBuildsWhatAParseBuilds() throws Exception {
    assertThat(Json.nodes().objectNode())
        .isExactlyInstanceOf(Json.reader().readTree("{}").getClass());
    assertThat(Json.nodes().numberNode(1)).isEqualTo(Json.reader().readTree("1"));
    assertThat(Json.nodes().nullNode()).isEqualTo(Json.reader().readTree("null"));
  }
}

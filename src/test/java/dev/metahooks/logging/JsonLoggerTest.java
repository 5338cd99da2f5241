package dev.metahooks.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonLoggerTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final JsonLogWriter writer =
      new JsonLogWriter(new PrintStream(out, true, StandardCharsets.UTF_8));

  private JsonNode line() throws Exception {
    String text = out.toString(StandardCharsets.UTF_8).trim();
    assertThat(text).doesNotContain("\n");
    return JsonTrees.MAPPER.readTree(text);
  }

  @Test
  void keyValuesBecomeTypedFields() throws Exception {
    JsonLogger logger = new JsonLogger("dev.metahooks.Test", LogLevel.INFO, writer);
    logger
        .atInfo()
        .addKeyValue("controller", "catset")
        .addKeyValue("status", 200)
        .addKeyValue("ok", true)
        .addKeyValue("durationMs", 1.5)
        .log("hook call");
    JsonNode line = line();
    assertThat(line.path("message").asText()).isEqualTo("hook call");
    assertThat(line.path("level").asText()).isEqualTo("INFO");
    assertThat(line.path("logger").asText()).isEqualTo("dev.metahooks.Test");
    assertThat(line.path("controller").asText()).isEqualTo("catset");
    assertThat(line.path("status").isInt() || line.path("status").isLong()).isTrue();
    assertThat(line.path("ok").asBoolean()).isTrue();
    assertThat(line.path("durationMs").asDouble()).isEqualTo(1.5);
    assertThat(line.path("time").asText()).endsWith("Z");
  }

  @Test
  void classicCallsAndErrorsAreOneLineToo() throws Exception {
    JsonLogger logger = new JsonLogger("x", LogLevel.INFO, writer);
    logger.warn("port {} is \"busy\"\nretrying", 8080, new IllegalStateException("boom"));
    JsonNode line = line();
    assertThat(line.path("message").asText()).isEqualTo("port 8080 is \"busy\"\nretrying");
    assertThat(line.path("error").asText()).isEqualTo("java.lang.IllegalStateException: boom");
    assertThat(line.path("stack").asText()).contains("JsonLoggerTest");
  }

  @Test
  void eventsBelowTheThresholdAreDropped() {
    JsonLogger logger = new JsonLogger("x", LogLevel.WARN, writer);
    logger.info("hidden");
    logger.atDebug().addKeyValue("a", 1).log("hidden too");
    assertThat(out.size()).isZero();
    assertThat(logger.isWarnEnabled()).isTrue();
    assertThat(logger.isInfoEnabled()).isFalse();
  }

  @Test
  void levelsParseLeniently() {
    assertThat(LogLevel.parse("debug")).isEqualTo(LogLevel.DEBUG);
    assertThat(LogLevel.parse(" WARN ")).isEqualTo(LogLevel.WARN);
    assertThat(LogLevel.parse(null)).isEqualTo(LogLevel.INFO);
    assertThat(LogLevel.parse("loud")).isEqualTo(LogLevel.INFO);
  }

  @Test
  void theTimeIsTheInstantToTheNanosecondWhateverSecondItFallsIn() {
    JsonLogWriter.Line line = new JsonLogWriter.Line();
    for (Instant instant :
        List.of(
            Instant.ofEpochSecond(1_800_000_000L, 7),
            Instant.ofEpochSecond(1_800_000_000L, 0),
            Instant.ofEpochSecond(1_800_000_000L, 999_999_999),
            Instant.ofEpochSecond(1_800_000_001L, 120_000_000),
            Instant.ofEpochSecond(1_799_999_999L, 5_000))) {
      String text = line.time(instant);
      assertThat(Instant.parse(text)).as(text).isEqualTo(instant);
      assertThat(text).startsWith(instant.toString().substring(0, 19));
    }
  }

  @Test
  void aLineIsWrittenWholeAndTheNextStartsAfresh() throws Exception {
    JsonLogger logger = new JsonLogger("dev.metahooks.Test", LogLevel.INFO, writer);
    logger.atInfo().addKeyValue("padding", "x".repeat(100_000)).log("long");
    logger.atInfo().addKeyValue("n", 2).log("short");
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    assertThat(lines).hasSize(2);
    assertThat(JsonTrees.MAPPER.readTree(lines[0]).path("padding").asText()).hasSize(100_000);
    JsonNode second = JsonTrees.MAPPER.readTree(lines[1]);
    assertThat(second.path("message").asText()).isEqualTo("short");
    assertThat(second.has("padding")).isFalse();
  }
}

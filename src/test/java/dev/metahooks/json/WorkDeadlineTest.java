package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A parse stops at its next token once its call's deadline has passed or its thread was interrupted. */
class WorkDeadlineTest {
  /** Enough tokens that the parse looks at its deadline on the way. */
  private static final byte[] BODY = body(5_000);

  private static final Projection PHASES = Projection.of(Map.of("Pod.v1", List.of("status.phase")));

  private static byte[] body(int children) {
    StringBuilder json =
        new StringBuilder("{\"parent\": {\"kind\": \"CatSet\"}, \"children\": {\"Pod.v1\": {");
    for (int i = 0; i < children; i++) {
      json.append(i == 0 ? "" : ",")
          .append("\"p-")
          .append(i)
          .append("\": {\"metadata\": {\"name\": \"p-")
          .append(i)
          .append("\"}, \"status\": {\"phase\": \"Running\"}}");
    }
    return json.append("}}}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static Object parse(Projection projection) {
    try {
      return JsonTrees.parse(BODY, projection);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aParseWithinItsDeadlineIsWhole() {
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    Object tree = WorkDeadline.within(until, () -> parse(Projection.NONE));
    assertThat(tree.toString()).contains("\"p-4999\"");
  }

  @Test
  void aParsePastItsDeadlineStops() {
    long passed = System.nanoTime() - 1;
    assertThatThrownBy(() -> WorkDeadline.within(passed, () -> parse(Projection.NONE)))
        .isInstanceOf(WorkDeadline.Passed.class);
    assertThatThrownBy(() -> WorkDeadline.within(passed, () -> parse(PHASES)))
        .as("projected")
        .isInstanceOf(WorkDeadline.Passed.class);
  }

  @Test
  void anInterruptedParseStopsAndOutsideADeadlineNothingDoes() {
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> WorkDeadline.within(until, () -> parse(Projection.NONE)))
          .isInstanceOf(WorkDeadline.Passed.class);
      assertThat(parse(Projection.NONE).toString()).contains("\"p-4999\"");
    } finally {
      Thread.interrupted();
    }
  }
}

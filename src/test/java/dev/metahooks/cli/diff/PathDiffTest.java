package dev.metahooks.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import org.junit.jupiter.api.Test;

class PathDiffTest {
  @Test
  void aNumberIsTheSameWhateverNodeTypeHoldsIt() {
    ObjectNode recorded = Json.object().put("archivedCount", 41);
    ObjectNode computed = Json.object().put("archivedCount", 41L);
    assertThat(recorded).isNotEqualTo(computed);
    assertThat(PathDiff.between(recorded, computed)).isEmpty();
  }

  @Test
  void anotherNumberIsAChange() {
    assertThat(PathDiff.between(Json.object().put("n", 41), Json.object().put("n", 42L)))
        .extracting(PathDiff.Change::path)
        .containsExactly("n");
    assertThat(PathDiff.between(Json.object().put("n", 41), Json.object().put("n", "41")))
        .extracting(PathDiff.Change::path)
        .containsExactly("n");
  }
}

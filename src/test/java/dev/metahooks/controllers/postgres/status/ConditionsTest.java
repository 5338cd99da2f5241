package dev.metahooks.controllers.postgres.status;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {
  static final Instant NOW = Instant.parse("2026-01-01T10:20:30.456Z");

  @Test
  void transitionTimeHoldsWhileTheStatusHoldsAndMovesWhenItChanges() {
    ObjectNode parent = Json.object();
    parent.putObject("metadata").put("generation", 4);
    ArrayNode previous = parent.putObject("status").putArray("conditions");
    previous
        .addObject()
        .put("type", "Ready")
        .put("status", "True")
        .put("lastTransitionTime", "2025-12-01T00:00:00Z");
    previous
        .addObject()
        .put("type", "Degraded")
        .put("status", "False")
        .put("lastTransitionTime", "2025-12-01T00:00:00Z");
    ArrayNode rendered =
        Conditions.render(
            List.of(
                new Conditions.Condition(
                    "Ready", true, "AllInstancesReady", "reason and message may change"),
                new Conditions.Condition("Degraded", true, "NoPrimary", "flipped"),
                new Conditions.Condition("SpecValid", true, "Valid", "new")),
            parent,
            NOW);
    assertThat(rendered.get(0).path("lastTransitionTime").asText())
        .isEqualTo("2025-12-01T00:00:00Z");
    assertThat(rendered.get(1).path("lastTransitionTime").asText())
        .isEqualTo("2026-01-01T10:20:30Z");
    assertThat(rendered.get(2).path("lastTransitionTime").asText())
        .isEqualTo("2026-01-01T10:20:30Z");
    assertThat(rendered.get(0).path("observedGeneration").asInt()).isEqualTo(4);
    assertThat(rendered.get(0))
        .isEqualTo(
            json(
                "{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"AllInstancesReady\","
                    + "\"message\":\"reason and message may change\",\"lastTransitionTime\":\"2025-12-01T00:00:00Z\",\"observedGeneration\":4}"));
  }
}

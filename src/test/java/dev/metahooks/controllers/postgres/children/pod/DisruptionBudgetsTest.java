package dev.metahooks.controllers.postgres.children.pod;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.kube.KubeSchema;
import org.junit.jupiter.api.Test;

class DisruptionBudgetsTest {
  @Test
  void oneAtATimeWhenThereIsMoreThanOneInstance() {
    assertThat(DisruptionBudgets.build("pg", spec(s -> {}))).isEmpty();
    assertThat(
            DisruptionBudgets.build(
                "pg",
                spec(
                    s ->
                        s.put("instances", 3)
                            .putObject("availability")
                            .put("podDisruptionBudget", false))))
        .isEmpty();
    var budget = DisruptionBudgets.build("pg", spec(s -> s.put("instances", 2))).orElseThrow();
    KubeSchema.assertValid(budget);
    assertThat(budget.at("/spec/maxUnavailable").asInt()).isEqualTo(1);
    // A pod that is not ready never blocks draining its node.
    assertThat(budget.at("/spec/unhealthyPodEvictionPolicy").asText()).isEqualTo("AlwaysAllow");
    assertThat(budget.at("/spec/selector/matchLabels/app.kubernetes.io~1instance").asText())
        .isEqualTo("pg");
  }
}

package dev.metahooks.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.bench.BenchCase;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The answer-size estimate: count × item size against the limit of the call, naming the largest kind of item. */
class AnswerSizeTest {
  /** The answer limit under the deployed heap: 371 MiB usable of -Xmx384m, two compute slots. */
  private static final long DEPLOYED_LIMIT = 389_283_840L / 36;

  @Test
  void anAnswerUnderTheLimitPasses() {
    assertThatCode(
            () ->
                AnswerSize.limitedTo(
                    10_000,
                    () -> {
                      AnswerSize.estimate()
                          .add("parent.spec.template", "parent.spec.replicas", 50, 64)
                          .check();
                      return null;
                    }))
        .doesNotThrowAnyException();
  }

  @Test
  void anAnswerOverTheLimitNamesTheCountAndTheTemplateOfItsLargestPart() {
    assertThatThrownBy(
            () ->
                AnswerSize.limitedTo(
                    10_000,
                    () -> {
                      AnswerSize.estimate()
                          .add(
                              "parent.spec.template",
                              "children['Pod.v1']",
                              2,
                              Json.object().put("x", "y"))
                          .add(
                              "parent.spec.volumeClaimTemplates[0]",
                              "parent.spec.replicas",
                              100,
                              200)
                          .check();
                      return null;
                    }))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.field()).isEqualTo("parent.spec.replicas");
              assertThat(e.getMessage())
                  .contains(
                      "parent.spec.volumeClaimTemplates[0] × parent.spec.replicas",
                      "100 × about 328 bytes",
                      "above the limit of 10000 (METAHOOKS_MAX_RESPONSE_BYTES)");
            });
  }

  @Test
  void aCountNoAnswerCouldHoldSaturatesInsteadOfOverflowing() {
    assertThatThrownBy(
            () ->
                AnswerSize.estimate()
                    .add(
                        "object.metadata.annotations['service-per-pod-ports']",
                        "object.spec.replicas",
                        Long.MAX_VALUE,
                        100)
                    .check())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("about 2^63 bytes");
  }

  @Test
  void theLimitIsTheCallsAndTheDefaultElsewhere() {
    assertThat(AnswerSize.limitedTo(1234, AnswerSize::limit)).isEqualTo(1234);
    assertThat(AnswerSize.limit()).isEqualTo(AnswerSize.defaultLimit());
    assertThat(AnswerSize.limitedTo(1000, () -> AnswerSize.maxItems(72))).isEqualTo(5);
  }

  /**
   * The sizes docs/configuration.md advertises (10,000 Pods, a 10 MB answer) are served under the deployed heap's
   * limit.
   */
  @ParameterizedTest
  @ValueSource(strings = {"catset:10000", "indexedjob:10000"})
  void theLargestAdvertisedAnswersFitTheDeployedLimit(String name) {
    BenchCase benchCase = BenchCase.of(name);
    FrontDoor frontDoor =
        FrontDoor.of(
            ServerConfig.builder().responseCacheBytes(0).maxResponseBytes(DEPLOYED_LIMIT).build(),
            Catalog.controllers());
    Reply reply = frontDoor.call(benchCase.controller(), benchCase.hook(), benchCase.body());
    assertThat(reply.status()).as(new String(reply.body().toByteArray())).isEqualTo(200);
  }
}

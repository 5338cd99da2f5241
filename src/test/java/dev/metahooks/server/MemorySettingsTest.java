package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.api.AnswerSize;
import dev.metahooks.server.config.ServerConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The memory settings follow the heap unless set, and are refused when they cannot work together. */
class MemorySettingsTest {
  private static final long HEAP = Runtime.getRuntime().maxMemory();

  @Test
  void theDefaultsFollowTheHeap() {
    ServerConfig config = ServerConfig.fromEnvironment(Map.of());
    assertThat(config.bodyBudgetBytes()).isEqualTo(HEAP / 9);
    assertThat(config.maxBodyBytes())
        .isEqualTo(Math.min(ServerConfig.DEFAULT_MAX_BODY_BYTES, HEAP / 9));
    assertThat(config.maxResponseBytes()).isEqualTo(AnswerSize.defaultLimit());
    assertThat(config.writeTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void eachCanBeSet() {
    ServerConfig config =
        ServerConfig.fromEnvironment(
            Map.of(
                "METAHOOKS_BODY_BUDGET_BYTES",
                "100000000",
                "METAHOOKS_MAX_RESPONSE_BYTES",
                "2000000",
                "METAHOOKS_WRITE_TIMEOUT_MS",
                "750"));
    assertThat(config.bodyBudgetBytes()).isEqualTo(100_000_000);
    assertThat(config.maxBodyBytes())
        .as("the body limit follows the budget")
        .isEqualTo(Math.min(ServerConfig.DEFAULT_MAX_BODY_BYTES, 100_000_000));
    assertThat(config.maxResponseBytes()).isEqualTo(2_000_000);
    assertThat(config.writeTimeout()).isEqualTo(Duration.ofMillis(750));
  }

  @Test
  void aBudgetTooSmallForTheLargestBodyIsRefused() {
    assertThatThrownBy(
            () ->
                ServerConfig.fromEnvironment(
                    Map.of(
                        "METAHOOKS_BODY_BUDGET_BYTES", "1000", "METAHOOKS_MAX_BODY_BYTES", "2000")))
        .hasMessageContaining(
            "METAHOOKS_BODY_BUDGET_BYTES (1000) must be at least"
                + " METAHOOKS_MAX_BODY_BYTES (2000)");
    assertThatThrownBy(
            () ->
                ServerConfig.fromEnvironment(
                    Map.of(
                        "METAHOOKS_MAX_BODY_BYTES",
                        "3000000000",
                        "METAHOOKS_BODY_BUDGET_BYTES",
                        "3000000000")))
        .hasMessageContaining("one array");
    assertThatThrownBy(
            () -> ServerConfig.fromEnvironment(Map.of("METAHOOKS_MAX_RESPONSE_BYTES", "0")))
        .hasMessageContaining("METAHOOKS_MAX_RESPONSE_BYTES must be positive");
  }
}

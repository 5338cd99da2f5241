package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ServerConfig is built with a builder: no public constructor, so a new setting breaks no caller. */
class ServerConfigBuilderTest {
  @Test
  void noPublicConstructorAndTheBuilderStartsFromTheDefaults() {
    assertThat(
            Arrays.stream(ServerConfig.class.getDeclaredConstructors())
                .filter(c -> Modifier.isPublic(c.getModifiers())))
        .isEmpty();
    assertThat(ServerConfig.class.isRecord()).isFalse();
    assertThat(ServerConfig.builder().build()).isEqualTo(ServerConfig.defaults());
  }

  @Test
  void settingsInCodeAndTheirRoundTrip() {
    ServerConfig config =
        ServerConfig.builder()
            .port(0)
            .hookDeadline(Duration.ofSeconds(2))
            .responseCacheBytes(0)
            .build();
    assertThat(config.port()).isZero();
    assertThat(config.hookDeadline()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.responseCacheBytes()).isZero();
    assertThat(config.idleTimeout()).isEqualTo(ServerConfig.defaults().idleTimeout());
    assertThat(config.toBuilder().build()).isEqualTo(config);
    assertThat(config.toBuilder().port(9090).build().port()).isEqualTo(9090);
  }

  @Test
  void aValueTheServerCannotUseIsRefusedWhenBuilt() {
    assertThatThrownBy(() -> ServerConfig.builder().port(70000).build())
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("METAHOOKS_PORT must be 0..65535, got 70000");
    assertThatThrownBy(() -> ServerConfig.builder().bodyBudgetBytes(10).maxBodyBytes(20).build())
        .hasMessageStartingWith(
            "METAHOOKS_BODY_BUDGET_BYTES (10) must be at least METAHOOKS_MAX_BODY_BYTES (20)");
  }

  @Test
  void theEnvironmentIsReadApartAndGivesTheSameSettingsAsCode() {
    assertThat(
            ServerConfig.fromEnvironment(
                Map.of("METAHOOKS_PORT", "0", "METAHOOKS_RESPONSE_CACHE_BYTES", "0")))
        .isEqualTo(
            ServerConfig.builder()
                .port(0)
                .responseCacheBytes(0)
                .warmUp(ServerConfig.DEFAULT_WARM_UP)
                .build());
  }
}

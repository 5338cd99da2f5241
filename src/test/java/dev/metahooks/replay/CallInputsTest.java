package dev.metahooks.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.api.Sources;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallInputsTest {
  private static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");
  private final Sources system = Sources.system();

  @Test
  void aLiveCallSeesOneInstantAndItsGeneratedSecretsAreKept() {
    CallInputs call = CallInputs.live(AT);
    String[] seen =
        call.during(
            () ->
                new String[] {
                  system.now().toString(),
                  system.secret("ns/s/password", 32),
                  system.secret("ns/s/password", 32),
                  system.secret("ns/s/salt", 16)
                });
    assertThat(seen[0]).isEqualTo(AT.toString());
    assertThat(seen[1]).hasSize(32).isEqualTo(seen[2]);
    assertThat(call.generated())
        .containsExactly(Map.entry("ns/s/password", seen[1]), Map.entry("ns/s/salt", seen[3]));
    assertThat(CallInputs.current()).isEmpty();
    assertThat(system.secret("ns/s/password", 32)).isNotEqualTo(seen[1]); // outside a call: random
  }

  @Test
  void aReplayGivesBackWhatWasGeneratedAndNewOnesForOtherPurposes() {
    CallInputs replay =
        CallInputs.replay(AT, Map.of("ns/s/password", "recorded-password-of-32-chars-xx"));
    assertThat(replay.during(() -> system.secret("ns/s/password", 32)))
        .isEqualTo("recorded-password-of-32-chars-xx");
    assertThat(replay.during(() -> system.secret("ns/s/password", 16)))
        .hasSize(16); // another length: new
    assertThat(replay.during(() -> system.secret("ns/other/password", 32))).hasSize(32);
    assertThat(replay.during(system::now)).isEqualTo(AT);
  }

  @Test
  void aRecordingKeyTooShortStopsTheServerAtStart(@TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("key"), "short\n");
    assertThatThrownBy(
            () -> ServerConfig.fromEnvironment(Map.of("METAHOOKS_RECORD_KEY_FILE", key.toString())))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage(
            "METAHOOKS_RECORD_KEY_FILE: "
                + key
                + " holds 5 bytes; a key needs at least 32 (openssl rand -base64 32)");
    Files.writeString(key, "0123456789abcdefghijklmnopqrstuvwxyz\n");
    assertThat(
            ServerConfig.fromEnvironment(Map.of("METAHOOKS_RECORD_KEY_FILE", key.toString()))
                .recording()
                .keyFile())
        .isEqualTo(key);
  }
}

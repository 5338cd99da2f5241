package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.server.config.ConfigurationException;
import dev.metahooks.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every setting is checked when the process starts, and a bad one is refused with a message naming it. */
class ServerConfigTest {
  @TempDir static Path dir;

  static Stream<Arguments> badSettings() {
    return Stream.of(
        Arguments.of(
            "METAHOOKS_PORT", "eighty", "METAHOOKS_PORT must be a whole number, got 'eighty'"),
        // 2^32 + 80 used to wrap around to port 80.
        Arguments.of(
            "METAHOOKS_PORT", "4294967376", "METAHOOKS_PORT must be 0..65535, got 4294967376"),
        Arguments.of("METAHOOKS_PORT", "-1", "METAHOOKS_PORT must be 0..65535"),
        Arguments.of(
            "METAHOOKS_MANAGEMENT_PORT", "65536", "METAHOOKS_MANAGEMENT_PORT must be 0..65535"),
        Arguments.of(
            "METAHOOKS_MAX_CONCURRENT_HOOKS",
            "4294967304",
            "METAHOOKS_MAX_CONCURRENT_HOOKS is too large"),
        Arguments.of(
            "METAHOOKS_MAX_CONCURRENT_HOOKS",
            "0",
            "METAHOOKS_MAX_CONCURRENT_HOOKS must be positive"),
        Arguments.of(
            "METAHOOKS_HOOK_DEADLINE_MS",
            "10000",
            "METAHOOKS_HOOK_DEADLINE_MS must be below 10000"),
        Arguments.of(
            "METAHOOKS_HOOK_DEADLINE_MS", "0", "METAHOOKS_HOOK_DEADLINE_MS must be positive"),
        Arguments.of(
            "METAHOOKS_LOG_LEVEL",
            "verbose",
            "METAHOOKS_LOG_LEVEL must be one of error, warn, info, debug"),
        Arguments.of(
            "METAHOOKS_LIBRARY_LOG_LEVEL", "all", "METAHOOKS_LIBRARY_LOG_LEVEL must be one of"),
        Arguments.of(
            "METAHOOKS_LOG_BODIES", "yes", "METAHOOKS_LOG_BODIES must be true or false, got 'yes'"),
        Arguments.of("METAHOOKS_LOG_BODIES", "1", "METAHOOKS_LOG_BODIES must be true or false"),
        Arguments.of(
            "METAHOOKS_TOKEN_FILE",
            "/no/such/token",
            "METAHOOKS_TOKEN_FILE: /no/such/token does not exist"),
        Arguments.of(
            "METAHOOKS_TOKEN_FILE",
            "/tmp",
            "METAHOOKS_TOKEN_FILE: /tmp does not exist or is not a file"),
        Arguments.of(
            "METAHOOKS_TLS_CERT_FILE",
            "/no/such/tls.crt",
            "METAHOOKS_TLS_CERT_FILE: /no/such/tls.crt"),
        Arguments.of(
            "METAHOOKS_TLS_CLIENT_CA_FILE",
            "ca\0.crt",
            "METAHOOKS_TLS_CLIENT_CA_FILE: 'ca\0.crt' is not a path"));
  }

  @ParameterizedTest(name = "{0}={1}")
  @MethodSource("badSettings")
  void aBadSettingIsRefusedNamingTheVariable(String name, String value, String message) {
    assertThatThrownBy(() -> ServerConfig.fromEnvironment(Map.of(name, value)))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(message)
        .hasMessageNotContaining("\n");
  }

  @Test
  void goodSettingsAreRead() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "t0ken");
    ServerConfig config =
        ServerConfig.fromEnvironment(
            Map.of(
                "METAHOOKS_PORT",
                " 9090 ",
                "METAHOOKS_HOOK_DEADLINE_MS",
                "9999",
                "METAHOOKS_LOG_BODIES",
                "TRUE",
                "METAHOOKS_LOG_LEVEL",
                "Debug",
                "METAHOOKS_LIBRARY_LOG_LEVEL",
                "info",
                "METAHOOKS_TOKEN_FILE",
                token.toString(),
                "METAHOOKS_MAX_CONCURRENT_HOOKS",
                "12",
                "METAHOOKS_LOG_BOD1ES",
                "a typo warns and is ignored"));
    assertThat(config.port()).isEqualTo(9090);
    assertThat(config.hookDeadline()).isEqualTo(Duration.ofMillis(9999));
    assertThat(config.logBodies()).isTrue();
    assertThat(config.tokenFile()).isEqualTo(token);
    assertThat(config.maxConcurrentHooks()).isEqualTo(12);
    assertThat(
            ServerConfig.fromEnvironment(
                    Map.of("METAHOOKS_LOG_BODIES", "false", "METAHOOKS_PORT", ""))
                .port())
        .isEqualTo(ServerConfig.DEFAULT_PORT);
  }

  @Test
  void everyVariableIsDocumentedAndEveryDocumentedOneIsRead() throws Exception {
    String page = MarkdownBlocks.page("docs/configuration.md");
    String configuration = page.substring(0, page.indexOf("## The PostgresCluster controller"));
    Set<String> documented = new TreeSet<>();
    Matcher name = Pattern.compile("`(METAHOOKS_[A-Z_]+)`").matcher(configuration);
    while (name.find()) {
      documented.add(name.group(1));
    }
    assertThat(documented).containsExactlyInAnyOrderElementsOf(ServerConfig.variables());
  }
}

package dev.metahooks.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A rendered container's process run with exactly the environment the kubelet builds. */
class KubeletIT {
  @Test
  void runsWithOnlyTheContainersEnvironmentAndTheOverrides() throws Exception {
    Kubelet.Container c =
        Kubelet.pod(
                KubeletTest.spec(
                    """
        {"containers": [{"name": "app", "command": ["sh", "-c", "echo \\"$GREETING $TARGET ${HOME:-no-home} $$$$\\""],
          "env": [{"name": "GREETING", "value": "hello"}, {"name": "TARGET", "value": "$(GREETING)-world"}]}]}
        """))
            .container("app");

    PostgresServer.Result result =
        PostgresServer.exec(
            c.argv(),
            c.environmentWith(Map.of("PATH", "/usr/bin:/bin")),
            Duration.ofSeconds(20),
            false);

    assertThat(result.exitCode()).isZero();
    assertThat(result.output()).matches("hello hello-world no-home \\d+\\n");
  }
}

package dev.metahooks.testsupport;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** kubectl kustomize's own message reaches the test that rendered. */
class ManifestsIT {
  @Test
  void kustomizeFailuresCarryKubectlsMessage() {
    assertThatThrownBy(() -> Manifests.render(Resources.projectDir().resolve("no-such-directory")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("kubectl kustomize")
        .hasMessageContaining("no-such-directory");
  }
}

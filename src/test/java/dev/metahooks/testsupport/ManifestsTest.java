package dev.metahooks.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ManifestsTest {
  @Test
  void readsEveryDocumentAsOneTreeSkippingEmptyOnes() {
    assertThat(
            Manifests.parse("a: 1\n---\n- x\n- y\n---\n---\n# a comment\n---\nb: [1]\n").toString())
        .isEqualTo("[{\"a\":1}, [\"x\",\"y\"], {\"b\":[1]}]");
  }

  @Test
  void refusesDuplicateKeysAsKubectlDoes() {
    assertThatThrownBy(() -> Manifests.parse("a: 1\na: 2\n"))
        .hasMessageContaining("Duplicate field 'a'");
  }
}

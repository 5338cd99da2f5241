package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A scenario's namespaces on a shared API server: its own prefix there, its own names back. */
class NamespaceMapTest {
  @Test
  void aScenarioNamespaceGoesOutWithThePrefixAndComesBackWithout() {
    NamespaceMap map = new NamespaceMap("mhabc12-");

    assertThat(map.toServer("default")).isEqualTo("mhabc12-default");
    assertThat(map.toScenario("mhabc12-default")).isEqualTo("default");
    assertThat(map.toServer("")).as("cluster-scoped").isEmpty();
  }

  @Test
  void anotherClustersOrTheServersOwnNamespacesAreNotOurs() {
    NamespaceMap map = new NamespaceMap("mhabc12-");

    assertThat(map.toScenario("kube-system")).isNull();
    assertThat(map.toScenario("mhzzz99-default")).isNull();
    assertThat(map.toScenario("mhabc12-")).isNull();
  }

  @Test
  void randomPrefixesDifferAndMakeValidNamespaceNames() {
    NamespaceMap one = NamespaceMap.random();
    NamespaceMap two = NamespaceMap.random();

    assertThat(one.prefix()).isNotEqualTo(two.prefix()).matches("mh[a-z0-9]{5}-");
    assertThat(one.toServer("team-a")).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    assertThatThrownBy(() -> new NamespaceMap("Upper-"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

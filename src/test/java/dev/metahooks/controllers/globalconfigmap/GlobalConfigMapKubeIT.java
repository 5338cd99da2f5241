package dev.metahooks.controllers.globalconfigmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.emulator.ApiException;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.testing.OnKubeApiServer;
import dev.metahooks.testsupport.Project;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link GlobalConfigMapScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
class GlobalConfigMapKubeIT extends GlobalConfigMapScenarioTest {
  /**
   * The CRD's schema is generated from the hook's Spec (GlobalConfigMapSchemaTest): the API server refuses an empty
   * source name when it is stored, where before it stored it and every sync failed with the hook's 422. Real API
   * server only: the in-memory store does not hold custom resources to their CRD's schema (docs/emulator.md).
   */
  @Test
  void theApiServerRefusesAnEmptySourceName() {
    Cluster cluster = Project.cluster();

    assertThatThrownBy(
            () ->
                cluster.create(
                    """
        {apiVersion: examples.metacontroller.io/v1alpha1, kind: GlobalConfigMap, metadata: {name: empty},
         spec: {sourceName: "", sourceNamespace: global}}"""))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.is(ApiException.Reason.INVALID)).isTrue())
        .hasMessageContaining("spec.sourceName");
    assertThat(
            cluster.exists("examples.metacontroller.io/v1alpha1", "GlobalConfigMap", "", "empty"))
        .isFalse();
  }
}

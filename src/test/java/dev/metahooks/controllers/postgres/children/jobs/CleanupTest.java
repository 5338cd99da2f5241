package dev.metahooks.controllers.postgres.children.jobs;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Kubelet;
import java.util.List;
import org.junit.jupiter.api.Test;

class CleanupTest {
  @Test
  void aJobThatMayDeleteOnlyPatronisConfigMapsOfTheCluster() {
    List<ObjectNode> objects =
        Cleanup.build(
            "pg",
            "shop",
            ClusterSpec.DEFAULT_IMAGE,
            PodScheduling.NONE,
            List.of("pg-config", "pg-leader"));
    objects.forEach(KubeSchema::assertValid);
    assertThat(objects)
        .extracting(o -> o.path("kind").asText() + "/" + Names.of(o))
        .containsExactly(
            "ServiceAccount/pg-cleanup",
            "Role/pg-cleanup",
            "RoleBinding/pg-cleanup",
            "Job/pg-cleanup");
    assertThat(objects.get(1).path("rules"))
        .isEqualTo(
            json(
                "[{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],"
                    + "\"resourceNames\":[\"pg-config\",\"pg-leader\",\"pg-failover\",\"pg-sync\"],\"verbs\":[\"delete\"]}]"));
    ObjectNode job = objects.get(3);
    assertThat(job.at("/spec/template/spec/serviceAccountName").asText()).isEqualTo("pg-cleanup");
    assertThat(job.at("/spec/template/spec/containers/0/command").toString())
        .endsWith(",\"cleanup\",\"pg-config\",\"pg-leader\"]");
    assertThat(Kubelet.pod(job.at("/spec/template/spec")).container(Cleanup.CONTAINER).argv())
        .as("the script and its arguments as the process receives them")
        .containsExactly("/bin/sh", "-c", Cleanup.SCRIPT, "cleanup", "pg-config", "pg-leader");
    assertThat(job.at("/spec/template/metadata/labels").has(Labels.CLUSTER_NAME))
        .as("never a database pod")
        .isFalse();
    assertThat(job.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
  }
}

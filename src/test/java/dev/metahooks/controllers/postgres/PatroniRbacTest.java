package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.testing.KubeSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class PatroniRbacTest {
  @Test
  void onlyWhatPatroniNeedsWithConfigMaps() {
    List<ObjectNode> rbac = PatroniRbac.build("pg", "shop");
    rbac.forEach(KubeSchema::assertValid);
    assertThat(rbac).extracting(o -> o.path("kind").asText() + "/" + ObservedCluster.nameOf(o))
        .containsExactly("ServiceAccount/pg-patroni", "Role/pg-patroni", "RoleBinding/pg-patroni");
    assertThat(rbac.get(1).path("rules").toString()).isEqualTo("["
        + "{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"verbs\":[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]},"
        + "{\"apiGroups\":[\"\"],\"resources\":[\"endpoints\"],\"verbs\":[\"get\"]},"
        + "{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"get\",\"list\",\"patch\",\"update\",\"watch\"]}]");
    assertThat(rbac.get(2).at("/subjects/0").toString())
        .isEqualTo("{\"kind\":\"ServiceAccount\",\"name\":\"pg-patroni\",\"namespace\":\"shop\"}");
  }
}

package dev.metahooks.controllers.postgres.children.network;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServicesTest {
  static List<String> names(List<ObjectNode> services) {
    return services.stream().map(Names::of).toList();
  }

  @Test
  void replicaServiceOnlyWithReplicasAndWhenEnabled() {
    assertThat(names(Services.build("pg", spec(s -> {})))).containsExactly("pg-hl", "pg-rw");
    assertThat(names(Services.build("pg", spec(s -> s.put("instances", 2)))))
        .containsExactly("pg-hl", "pg-rw", "pg-ro");
    assertThat(
            names(
                Services.build(
                    "pg",
                    spec(
                        s ->
                            s.put("instances", 2)
                                .putObject("services")
                                .putObject("replicas")
                                .put("enabled", false)))))
        .containsExactly("pg-hl", "pg-rw");
  }

  @Test
  void selectorsFollowPatronisRoleLabel() {
    Services.build("pg", spec(s -> s.put("instances", 3))).forEach(KubeSchema::assertValid);
    assertThat(Services.primary("pg", "LoadBalancer").at("/spec/selector"))
        .isEqualTo(
            json(
                "{\"app.kubernetes.io/instance\":\"pg\",\"app.kubernetes.io/name\":\"postgresql\",\"spilo-role\":\"master\"}"));
    assertThat(Services.primary("pg", "LoadBalancer").at("/spec/type").asText())
        .isEqualTo("LoadBalancer");
    assertThat(Services.replicas("pg").at("/spec/selector/spilo-role").asText())
        .isEqualTo("replica");
    ObjectNode headless = Services.headless("pg");
    assertThat(headless.at("/spec/clusterIP").asText()).isEqualTo("None");
    assertThat(headless.at("/spec/publishNotReadyAddresses").asBoolean()).isTrue();
    assertThat(headless.at("/spec/selector").has("spilo-role")).isFalse();
  }
}

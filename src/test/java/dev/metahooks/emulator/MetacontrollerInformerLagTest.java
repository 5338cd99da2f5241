package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Metacontroller#informerLag}: children read as the informer cache may hold them, a round behind, so the
 * sync that the parent's own status write starts does not see the children its previous sync created.
 */
class MetacontrollerInformerLagTest {
  private static LocalHooks hooks;

  /** ConfigMaps {@code <name>-<i>} for {@code i < spec.replicas}; status.seen counts the observed ones. */
  static CompositeResponse counting(CompositeRequest request) {
    List<ObjectNode> children = new ArrayList<>();
    for (int i = 0; i < request.parent().path("spec").path("replicas").asInt(0); i++) {
      children.add(TestKinds.configMap(request.name() + "-" + i, "k", "v"));
    }
    return CompositeResponse.of(
        Json.object().put("seen", request.children().count("v1", "ConfigMap")), children);
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("counting").sync(MetacontrollerInformerLagTest::counting).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private static List<Integer> childrenSent(boolean lag) {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .profile(Profile.V4_17_2)
            .informerLag(lag)
            .loadYaml(TestKinds.composite("counting", "configmaps", "OnDelete"));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {replicas: 2}}");
    mc.runUntilStable(10);
    assertThat(
            cluster.get(TestKinds.API_VERSION, "Thing", "default", "a").at("/status/seen").asInt())
        .isEqualTo(2);
    List<Integer> sent = new ArrayList<>();
    for (HookCall call : mc.calls("counting-controller", "sync")) {
      int count = 0;
      for (JsonNode group : call.request().path("children")) {
        count += group.size();
      }
      sent.add(count);
    }
    return sent;
  }

  @Test
  void theSyncAfterTheStatusWriteMissesTheChildrenJustCreatedAndALaterOneSeesThem() {
    assertThat(childrenSent(false)).as("fresh reads").containsExactly(0, 2, 2);
    assertThat(childrenSent(true)).as("a round behind").containsExactly(0, 0, 2, 2);
  }
}

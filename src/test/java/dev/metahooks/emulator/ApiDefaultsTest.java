package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.Project;
import dev.metahooks.testsupport.TestKinds;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fake API server's defaults and number handling under v4.17.2, and what Metacontroller makes of them. */
class ApiDefaultsTest {
  private static LocalHooks hooks;

  /** A Gadget child with {@code spec.size: 3.0} (a floating-point literal), replaced on change. */
  static CompositeResponse floats(CompositeRequest request) {
    ObjectNode gadget =
        Json.object().put("apiVersion", TestKinds.API_VERSION).put("kind", "Gadget");
    gadget.putObject("metadata").put("name", request.name() + "-g");
    gadget.putObject("spec").put("size", 3.0);
    return CompositeResponse.of(Json.object().put("size", 3.0), List.of(gadget));
  }

  @BeforeAll
  static void startHooks() {
    hooks = LocalHooks.start(Controller.composite("floats").sync(ApiDefaultsTest::floats).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  @Test
  void aPodGetsFieldDefaultsTheServiceAccountVolumeAndTwoDefaultTolerations() {
    Cluster cluster = Project.cluster().profile(Profile.V4_17_2);
    ObjectNode pod =
        cluster.create(
            """
        {apiVersion: v1, kind: Pod, metadata: {name: p},
         spec: {containers: [{name: c, image: "nginx:1.27", ports: [{containerPort: 80}]}],
                tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]}}
        """);

    assertThat(pod.at("/spec/restartPolicy").asText()).isEqualTo("Always");
    assertThat(pod.at("/spec/terminationGracePeriodSeconds").asInt()).isEqualTo(30);
    assertThat(pod.at("/spec/containers/0/imagePullPolicy").asText()).isEqualTo("IfNotPresent");
    assertThat(pod.at("/spec/containers/0/ports/0/protocol").asText()).isEqualTo("TCP");
    assertThat(pod.at("/spec/serviceAccountName").asText()).isEqualTo("default");
    assertThat(pod.at("/spec/volumes/0/name").asText()).startsWith("kube-api-access-");
    assertThat(pod.at("/spec/containers/0/volumeMounts/0/mountPath").asText())
        .isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount");
    assertThat(pod.at("/spec/tolerations"))
        .as("only not-ready added; unreachable was tolerated")
        .hasSize(2);
    assertThat(pod.at("/spec/tolerations/1/key").asText())
        .isEqualTo("node.kubernetes.io/not-ready");
    assertThat(pod.at("/spec/tolerations/1/tolerationSeconds").asInt()).isEqualTo(300);

    ObjectNode plain =
        Project.cluster()
            .profile(Profile.INTENDED)
            .create(
                "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: nginx}]}}");
    assertThat(plain.at("/spec").size()).as("intended: stored as sent").isEqualTo(1);
  }

  @Test
  void servicesStatefulSetsAndJobsGetTheirDefaultsAndAServiceKeepsItsClusterIp() {
    Cluster cluster = Project.cluster().profile(Profile.V4_17_2);
    ObjectNode service =
        cluster.create(
            "{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {ports: [{port: 80}]}}");
    assertThat(service.at("/spec/type").asText()).isEqualTo("ClusterIP");
    assertThat(service.at("/spec/ports/0/targetPort").asInt()).isEqualTo(80);
    String ip = service.at("/spec/clusterIP").asText();
    assertThat(ip).startsWith("10.96.");
    ObjectNode updated =
        cluster.update(
            "v1", "Service", "default", "s", s -> s.withObject("/spec").remove("clusterIP"));
    assertThat(updated.at("/spec/clusterIP").asText()).isEqualTo(ip);

    ObjectNode set =
        cluster.create(
            """
        {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db},
         spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: pg}]}}}}
        """);
    assertThat(set.at("/spec/podManagementPolicy").asText()).isEqualTo("OrderedReady");
    assertThat(set.at("/spec/updateStrategy/rollingUpdate/partition").asInt()).isZero();
    assertThat(set.at("/spec/template/spec/containers/0/imagePullPolicy").asText())
        .isEqualTo("Always");
    assertThat(set.at("/spec/template/spec/tolerations").isMissingNode())
        .as("admission is for Pods only")
        .isTrue();

    ObjectNode job =
        cluster.create(
            """
        {apiVersion: batch/v1, kind: Job, metadata: {name: j},
         spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: "busybox:1"}]}}}}
        """);
    assertThat(job.at("/spec/backoffLimit").asInt()).isEqualTo(6);
    assertThat(job.at("/spec/completions").asInt()).isEqualTo(1);
  }

  @Test
  void threeAndThreePointZeroDifferSoARecreatedChildIsRecreatedForeverOnV4172() {
    Cluster cluster =
        TestKinds.cluster().register(TestKinds.API_VERSION, "Gadget", "gadgets", true);
    String manifest =
        """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: floats-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
          childResources: [{apiVersion: test.metahooks.dev/v1, resource: gadgets, updateStrategy: {method: Recreate}}]
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/floats/sync"}}}
        """;
    Metacontroller faithful =
        new Metacontroller(cluster, hooks.baseUrl()).profile(Profile.V4_17_2).loadYaml(manifest);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {}}");

    assertThatThrownBy(() -> faithful.runUntilStable(10))
        .hasMessageContaining("did not settle")
        .hasMessageContaining("DELETE Gadget default/t-g");
    assertThat(cluster.writes())
        .filteredOn(w -> w.verb() == Write.Verb.CREATE && w.object().equals("Gadget default/t-g"))
        .allSatisfy(
            w ->
                assertThat(w.after().at("/spec/size").isIntegralNumber())
                    .as("stored as read back")
                    .isTrue());

    Cluster other = TestKinds.cluster().register(TestKinds.API_VERSION, "Gadget", "gadgets", true);
    Metacontroller intended =
        new Metacontroller(other, hooks.baseUrl()).profile(Profile.INTENDED).loadYaml(manifest);
    other.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {}}");
    intended.runUntilStable(10);
  }
}

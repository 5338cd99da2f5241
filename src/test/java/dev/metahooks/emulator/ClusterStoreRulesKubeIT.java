package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controlplane.ProjectCluster;
import dev.metahooks.testing.ControlPlane;
import dev.metahooks.testing.kube.KubeApi;
import dev.metahooks.testing.kube.KubeYaml;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The in-memory API server's rules of what it stores and refuses (docs/emulator.md, "What the API server stores"),
 * each case run in both: the kit's {@link Cluster} and a real kube-apiserver must store the same thing, or refuse
 * the same request.
 */
class ClusterStoreRulesKubeIT {
  private static final String NAMESPACE = "store-rules";
  private static KubeApi api;

  @BeforeAll
  static void cluster() {
    api = new KubeApi(ControlPlane.shared().client());
    ProjectCluster.namespace(api, NAMESPACE);
  }

  static Stream<Arguments> storedForms() {
    return Stream.of(
        Arguments.of(
            "quantities are stored canonical",
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: quantities, namespace: store-rules}
            spec:
              containers:
              - name: c
                image: example.invalid/none:0
                resources:
                  requests: {cpu: "0.5", memory: 1024Mi, ephemeral-storage: 1073741824}
                  limits: {cpu: 1500m, memory: 1.5Gi}
            """,
            List.of("/spec/containers/0/resources")),
        Arguments.of(
            "empty maps and lists are not stored",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: empty, namespace: store-rules, labels: {}, annotations: {}, finalizers: []}
            data: {key: value}
            binaryData: {}
            """,
            List.of(
                "/metadata/labels",
                "/metadata/annotations",
                "/metadata/finalizers",
                "/binaryData",
                "/data")),
        Arguments.of(
            "stringData is folded into data",
            """
            apiVersion: v1
            kind: Secret
            metadata: {name: folded, namespace: store-rules}
            data: {kept: a2VwdA==}
            stringData: {password: "s3cret", kept: "overrides"}
            """,
            List.of("/data", "/stringData")),
        Arguments.of(
            "unknown fields of a built-in kind are dropped",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: unknown, namespace: store-rules}
            data: {key: value}
            extra: {field: 1}
            """,
            List.of("/extra", "/data")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storedForms")
  void bothStoreTheSameForm(String rule, String yaml, List<String> fields) {
    ObjectNode object = (ObjectNode) KubeYaml.parse(yaml).get(0);
    ObjectNode inMemory = new Cluster().create(object.deepCopy());
    JsonNode real = api.create(object.deepCopy(), NAMESPACE, true).orThrow();
    for (String field : fields) {
      assertThat(inMemory.at(field))
          .as("%s: %s in memory and on the real server", rule, field)
          .isEqualTo(real.at(field));
    }
  }

  @Test
  void bothRefuseANamespacedObjectPostedWithoutANamespace() {
    ObjectNode configMap =
        (ObjectNode)
            KubeYaml.parse(
                    """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: nowhere}
        """)
                .get(0);
    KubeApi.Answer real = api.call("POST", "/api/v1/configmaps", configMap);
    assertThat(real.code()).isEqualTo(405);
    assertThatThrownBy(() -> new Cluster().createIn("", configMap.deepCopy()))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> assertThat(e.is(ApiException.Reason.METHOD_NOT_ALLOWED)).isTrue());
  }

  @Test
  void bothRefuseAChangedClusterIpOfAHeadlessService() {
    String yaml =
        """
        apiVersion: v1
        kind: Service
        metadata: {name: headless, namespace: store-rules}
        spec:
          clusterIP: None
          selector: {app: db}
          ports: [{port: 5432}]
        """;
    ObjectNode service = (ObjectNode) KubeYaml.parse(yaml).get(0);
    api.delete("v1", "Service", NAMESPACE, "headless", "Background");
    ObjectNode real = (ObjectNode) api.create(service.deepCopy(), NAMESPACE, false).orThrow();
    Cluster cluster = new Cluster();
    ObjectNode inMemory = cluster.create(service.deepCopy());

    ((ObjectNode) real.get("spec")).put("clusterIP", "10.96.0.42").remove("clusterIPs");
    ((ObjectNode) inMemory.get("spec")).put("clusterIP", "10.96.0.42").remove("clusterIPs");

    KubeApi.Answer refused = api.update(real);
    assertThat(refused.code()).isEqualTo(422);
    assertThat(refused.message()).contains("may not change once set");
    assertThatThrownBy(() -> cluster.update(inMemory))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.is(ApiException.Reason.INVALID)).isTrue())
        .hasMessageContaining("may not change once set");
  }

  @Test
  void bothRefuseAChangedStatefulSetSelector() {
    String yaml =
        """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: selector, namespace: store-rules}
        spec:
          serviceName: selector
          selector: {matchLabels: {app: a}}
          template:
            metadata: {labels: {app: a, tier: b}}
            spec: {containers: [{name: c, image: example.invalid/none:0}]}
        """;
    ObjectNode statefulSet = (ObjectNode) KubeYaml.parse(yaml).get(0);
    api.delete("apps/v1", "StatefulSet", NAMESPACE, "selector", "Background");
    api.create(statefulSet.deepCopy(), NAMESPACE, false).orThrow();
    Cluster cluster = new Cluster();
    ObjectNode inMemory = cluster.create(statefulSet.deepCopy());
    ((ObjectNode) inMemory.at("/spec/selector/matchLabels")).put("tier", "b");

    KubeApi.Answer refused;
    do { // the StatefulSet controller writes its status meanwhile: read again after a conflict
      ObjectNode real =
          (ObjectNode) api.get("apps/v1", "StatefulSet", NAMESPACE, "selector").orThrow();
      ((ObjectNode) real.at("/spec/selector/matchLabels")).put("tier", "b");
      refused = api.update(real);
    } while (refused.code() == 409);
    assertThat(refused.code()).isEqualTo(422);
    assertThat(refused.message()).contains("Forbidden");
    assertThatThrownBy(() -> cluster.update(inMemory))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.is(ApiException.Reason.INVALID)).isTrue())
        .hasMessageContaining("Forbidden");
  }
}

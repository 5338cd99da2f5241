package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the emulated API server refuses as a real one does (Kubernetes' objectmeta.go and the core, apps, batch
 * and rbac validation.go), and what Metacontroller makes of a refused write: the sync fails and is retried.
 */
class ValidationTest {
  private static LocalHooks hooks;

  /** A ConfigMap child with a label value no API server accepts. */
  static CompositeResponse badLabel(CompositeRequest request) {
    ObjectNode child = TestKinds.configMap(request.name() + "-data", "key", "value");
    child.withObject("/metadata").putObject("labels").put("owner", "not a label value!");
    return CompositeResponse.of(Json.object(), List.of(child));
  }

  /** A DNS Service child: port 53 over UDP and over TCP. */
  static CompositeResponse dns(CompositeRequest request) {
    ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
    service.putObject("metadata").put("name", request.name() + "-dns");
    ObjectNode spec = service.putObject("spec");
    spec.putObject("selector").put("app", "dns");
    spec.putArray("ports")
        .add(Json.object().put("name", "dns").put("port", 53).put("protocol", "UDP"))
        .add(Json.object().put("name", "dns-tcp").put("port", 53).put("protocol", "TCP"));
    return CompositeResponse.of(Json.object(), List.of(service));
  }

  /** A ConfigMap child that names its parent as controller itself. */
  static CompositeResponse ownReference(CompositeRequest request) {
    ObjectNode child = TestKinds.configMap(request.name() + "-data", "key", "value");
    ObjectNode parent = request.parent();
    child
        .withObject("/metadata")
        .putArray("ownerReferences")
        .add(
            Json.object()
                .put("apiVersion", parent.path("apiVersion").asText())
                .put("kind", parent.path("kind").asText())
                .put("name", request.name())
                .put("uid", parent.at("/metadata/uid").asText())
                .put("controller", true)
                .put("blockOwnerDeletion", true));
    return CompositeResponse.of(Json.object(), List.of(child));
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("badlabel").sync(ValidationTest::badLabel).build(),
            Controller.composite("dns").sync(ValidationTest::dns).build(),
            Controller.composite("ownref").sync(ValidationTest::ownReference).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private static Metacontroller metacontroller(
      Cluster cluster, String hook, String resource, String method) {
    return new Metacontroller(cluster, hooks.baseUrl())
        .loadYaml(TestKinds.composite(hook, resource, method));
  }

  private static void refused(Cluster cluster, String yaml, String message) {
    assertThatThrownBy(() -> cluster.create(yaml))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining(message);
  }

  private static void refusedUpdate(
      Cluster cluster,
      String apiVersion,
      String kind,
      String name,
      Consumer<ObjectNode> change,
      String message) {
    assertThatThrownBy(() -> cluster.update(apiVersion, kind, "default", name, change))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining(message);
  }

  @Test
  void namesLabelsAnnotationsAndOwnerReferencesAreChecked() {
    Cluster cluster = TestKinds.cluster();
    refused(
        cluster,
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: My_Config}}",
        "ConfigMap \"My_Config\" is invalid: metadata.name: Invalid value: \"My_Config\": a lowercase RFC 1123 subdomain");
    refused(
        cluster,
        "{apiVersion: v1, kind: Service, metadata: {name: db.primary}, spec: {ports: [{port: 5432}]}}",
        "metadata.name: Invalid value: \"db.primary\": a DNS-1035 label");
    refused(
        cluster,
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {tier: \"a b\"}}}",
        "metadata.labels: Invalid value: \"a b\": a valid label must be an empty string");
    refused(
        cluster,
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {tier: "
            + "x".repeat(64)
            + "}}}",
        "a valid label must be an empty string");
    refused(
        cluster,
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, annotations: {\"a/b/c\": x}}}",
        "metadata.annotations: Invalid value: \"a/b/c\"");
    refused(
        cluster,
        """
        {apiVersion: v1, kind: ConfigMap, metadata: {name: c, ownerReferences: [
          {apiVersion: v1, kind: Thing, name: a, uid: u1, controller: true},
          {apiVersion: v1, kind: Thing, name: b, uid: u2, controller: true}]}}
        """,
        "Only one reference can have Controller set to true. Found \"true\" in references for Thing/a and Thing/b");
    refused(
        cluster,
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: Upper}}",
        "Thing.test.metahooks.dev \"Upper\" is invalid");

    assertThat(
            cluster
                .create(
                    "{apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {name: \"system:reader\"}}")
                .at("/metadata/name")
                .asText())
        .as("RBAC names are path segments")
        .isEqualTo("system:reader");
    assertThat(
            cluster.create(
                "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {tier: \"\"}}}"))
        .isNotNull();
  }

  @Test
  void serviceSelectorAndTemplateRules() {
    Cluster cluster = TestKinds.cluster();
    refused(
        cluster,
        "{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {ports: [{port: 53, name: a}, "
            + "{port: 53, name: b}]}}",
        "spec.ports[1]: Duplicate value: {port: 53, protocol: TCP}");
    refused(
        cluster,
        "{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {ports: [{port: 80}, {port: 443}]}}",
        "spec.ports[0].name: Required value");
    refused(
        cluster,
        "{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {ports: [{port: 80, name: a}, "
            + "{port: 443, name: a}]}}",
        "spec.ports[1].name: Duplicate value: \"a\"");
    refused(
        cluster,
        """
        {apiVersion: apps/v1, kind: Deployment, metadata: {name: d},
         spec: {selector: {matchLabels: {app: a}}, template: {metadata: {labels: {app: b}}, spec: {containers: []}}}}
        """,
        "spec.template.metadata.labels: Invalid value: {\"app\":\"b\"}: `selector` does not match template `labels`");

    assertThat(
            cluster.create(
                "{apiVersion: v1, kind: Service, metadata: {name: s}, spec: {ports: [{port: 53, name: "
                    + "dns, protocol: UDP}, {port: 53, name: dns-tcp, protocol: TCP}]}}"))
        .isNotNull();
  }

  @Test
  void fieldsThatCannotChangeOnceCreated() {
    Cluster cluster = TestKinds.cluster();
    cluster.create(
        "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: a}]}}");
    cluster.update(
        "v1", "Pod", "default", "p", p -> p.withObject("/spec/containers/0").put("image", "b"));
    refusedUpdate(
        cluster,
        "v1",
        "Pod",
        "p",
        p -> p.withObject("/spec/containers/0").putArray("args").add("x"),
        "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`");

    cluster.create(
        """
        {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db},
         spec: {serviceName: db, replicas: 1, selector: {matchLabels: {app: db}},
                template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: pg}]}}}}
        """);
    cluster.update(
        "apps/v1", "StatefulSet", "default", "db", s -> s.withObject("/spec").put("replicas", 3));
    refusedUpdate(
        cluster,
        "apps/v1",
        "StatefulSet",
        "db",
        s -> s.withObject("/spec").put("serviceName", "other"),
        "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than");

    cluster.create(
        """
        {apiVersion: batch/v1, kind: Job, metadata: {name: j},
         spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: a}]}}}}
        """);
    refusedUpdate(
        cluster,
        "batch/v1",
        "Job",
        "j",
        j -> j.withObject("/spec/template/spec/containers/0").put("image", "b"),
        "spec.template: Invalid value");

    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: frozen}, immutable: true, data: {a: '1'}}");
    refusedUpdate(
        cluster,
        "v1",
        "ConfigMap",
        "frozen",
        c -> c.withObject("/data").put("a", "2"),
        "data: Forbidden: field is immutable when `immutable` is set");

    cluster.create(
        """
        {apiVersion: rbac.authorization.k8s.io/v1, kind: RoleBinding, metadata: {name: rb},
         roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: a}, subjects: []}
        """);
    refusedUpdate(
        cluster,
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
        "rb",
        b -> b.withObject("/roleRef").put("name", "b"),
        "cannot change roleRef");

    cluster.create(
        """
        {apiVersion: apps/v1, kind: Deployment, metadata: {name: d},
         spec: {selector: {matchLabels: {app: a}}, template: {metadata: {labels: {app: a, v: "1"}}}}}
        """);
    refusedUpdate(
        cluster,
        "apps/v1",
        "Deployment",
        "d",
        d -> d.withObject("/spec/selector/matchLabels").put("v", "1"),
        "spec.selector: Invalid value");
  }

  /**
   * A Service's cluster IP never changes, headless or not: an update that leaves it out keeps the one stored
   * (patchAllocatedValues), one that names another is refused once normalizeClusterIPs has made it
   * {@code clusterIPs[0]} (pkg/registry/core/service/storage/storage.go, validateUpgradeDowngradeClusterIPs).
   */
  @Test
  void aServicesClusterIpCannotChangeHeadlessOrNot() {
    Cluster cluster = TestKinds.cluster();
    cluster.create(
        "{apiVersion: v1, kind: Service, metadata: {name: headless}, spec: {clusterIP: None, "
            + "selector: {app: a}, ports: [{port: 5432}]}}");
    ObjectNode headless = cluster.get("v1", "Service", "default", "headless");
    assertThat(headless.at("/spec/clusterIPs").toString()).isEqualTo("[\"None\"]");

    refusedUpdate(
        cluster,
        "v1",
        "Service",
        "headless",
        s -> s.withObject("/spec").put("clusterIP", "10.96.0.77"),
        "Service \"headless\" is invalid: spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.77\"}: may not "
            + "change once set");

    cluster.create(
        "{apiVersion: v1, kind: Service, metadata: {name: virtual}, spec: {clusterIP: 10.96.0.5, "
            + "selector: {app: a}, ports: [{port: 80}]}}");
    refusedUpdate(
        cluster,
        "v1",
        "Service",
        "virtual",
        s -> s.withObject("/spec").put("clusterIP", "None"),
        "spec.clusterIPs[0]: Invalid value: []string{\"None\"}: may not change once set");
    refusedUpdate(
        cluster,
        "v1",
        "Service",
        "virtual",
        s -> {
          s.withObject("/spec").put("clusterIP", "10.96.0.6");
          s.withObject("/spec").putArray("clusterIPs").add("10.96.0.6");
        },
        "may not change once set");

    cluster.update(
        "v1",
        "Service",
        "default",
        "virtual",
        s -> s.withObject("/metadata").putObject("labels").put("changed", "yes"));
    assertThat(cluster.get("v1", "Service", "default", "virtual").at("/spec/clusterIP").asText())
        .isEqualTo("10.96.0.5");
  }

  @Test
  void aServiceLeftWithoutItsClusterIpKeepsTheStoredOne() {
    Cluster cluster = TestKinds.cluster().profile(Profile.V4_17_2);
    cluster.create(
        "{apiVersion: v1, kind: Service, metadata: {name: headless}, spec: {clusterIP: None, "
            + "selector: {app: a}, ports: [{port: 5432}]}}");
    cluster.update(
        "v1",
        "Service",
        "default",
        "headless",
        s -> {
          ObjectNode spec = s.withObject("/spec");
          spec.remove(List.of("clusterIP", "clusterIPs"));
          spec.withObject("/selector").put("app", "b");
        });
    ObjectNode stored = cluster.get("v1", "Service", "default", "headless");
    assertThat(stored.at("/spec/clusterIP").asText()).isEqualTo("None");
    assertThat(stored.at("/spec/selector/app").asText()).isEqualTo("b");
  }

  /** ValidateJobSpecUpdate and validatePodTemplateUpdate (pkg/apis/batch/validation/validation.go:623-676). */
  @Test
  void aJobsTemplateAndSelectorCannotChangeButASuspendedUnstartedJobsSchedulingCan() {
    Cluster cluster = TestKinds.cluster();
    cluster.create(
        """
        {apiVersion: batch/v1, kind: Job, metadata: {name: j},
         spec: {selector: {matchLabels: {job: j}}, template: {metadata: {labels: {job: j}},
                spec: {restartPolicy: Never, containers: [{name: c, image: a}]}}}}
        """);
    refusedUpdate(
        cluster,
        "batch/v1",
        "Job",
        "j",
        j -> j.withObject("/spec/template/spec").putObject("nodeSelector").put("disk", "ssd"),
        "spec.template: Invalid value");
    refusedUpdate(
        cluster,
        "batch/v1",
        "Job",
        "j",
        j -> j.withObject("/spec/selector/matchLabels").put("job", "k"),
        "spec.selector: Invalid value");
    refusedUpdate(
        cluster,
        "batch/v1",
        "Job",
        "j",
        j -> j.withObject("/spec").put("managedBy", "elsewhere"),
        "spec.managedBy: Invalid value");

    cluster.create(
        """
        {apiVersion: batch/v1, kind: Job, metadata: {name: waiting},
         spec: {suspend: true, template: {spec: {restartPolicy: Never, containers: [{name: c, image: a}]}}}}
        """);
    cluster.update(
        "batch/v1",
        "Job",
        "default",
        "waiting",
        j -> {
          j.withObject("/spec/template/spec").putObject("nodeSelector").put("disk", "ssd");
          j.withObject("/spec/template/metadata").putObject("labels").put("tier", "batch");
        });
    assertThat(
            cluster
                .get("batch/v1", "Job", "default", "waiting")
                .at("/spec/template/spec/nodeSelector/disk")
                .asText())
        .isEqualTo("ssd");
    refusedUpdate(
        cluster,
        "batch/v1",
        "Job",
        "waiting",
        j -> j.withObject("/spec/template/spec/containers/0").put("image", "b"),
        "spec.template: Invalid value");
  }

  @Test
  void aStatefulSetsSelectorAndClaimTemplatesCannotChange() {
    Cluster cluster = TestKinds.cluster();
    cluster.create(
        """
        {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db},
         spec: {serviceName: db, selector: {matchLabels: {app: db}},
                template: {metadata: {labels: {app: db, v: "1"}}, spec: {containers: [{name: c, image: pg}]}},
                volumeClaimTemplates: [{metadata: {name: data},
                                        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]}}
        """);
    String forbidden =
        "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
            + "'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and "
            + "'minReadySeconds' are forbidden";
    refusedUpdate(
        cluster,
        "apps/v1",
        "StatefulSet",
        "db",
        s -> s.withObject("/spec/selector/matchLabels").put("v", "1"),
        forbidden);
    refusedUpdate(
        cluster,
        "apps/v1",
        "StatefulSet",
        "db",
        s ->
            s.withObject("/spec/volumeClaimTemplates/0/spec/resources/requests")
                .put("storage", "2Gi"),
        forbidden);
    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "db",
        s ->
            s.withObject("/spec/volumeClaimTemplates/0/spec/resources/requests")
                .put("storage", "1024Mi"));
  }

  /**
   * A refused write fails the sync, which the work queue retries after 5 ms, then 10 ms, doubling
   * (DefaultTypedControllerRateLimiter, composite/controller.go:205-207, :377), on the cluster's clock.
   */
  @Test
  void aRefusedChildIsASyncErrorRetriedWithBackoff() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        metacontroller(cluster, "badlabel", "configmaps", "InPlace").profile(Profile.V4_17_2);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");

    assertThatThrownBy(() -> mc.runUntilStable(6))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("syncs keep failing")
        .hasMessageContaining(
            "can't create ConfigMap default/a-data: ConfigMap \"a-data\" is invalid: metadata.labels")
        .hasMessageContaining("Rate-limited retries not yet due")
        .hasMessageContaining("{badlabel-controller Thing default/a=2026-01-01T00:00:00.010Z}");
    assertThat(cluster.exists("v1", "ConfigMap", "default", "a-data")).isFalse();
    assertThat(mc.syncErrors()).as("the status write's own event brings a second sync").hasSize(2);

    cluster.advance(java.time.Duration.ofMillis(9));
    assertThat(mc.round().errors()).as("9 ms: the second failure waits 10 ms").isEmpty();
    cluster.advance(java.time.Duration.ofMillis(1));
    assertThat(mc.round().errors()).hasSize(1);
    cluster.advance(java.time.Duration.ofMillis(19));
    assertThat(mc.round().errors()).isEmpty();
    cluster.advance(java.time.Duration.ofMillis(1));
    assertThat(mc.round().errors()).hasSize(1);

    // One Warning SyncError Event on the parent, counted once per failed sync
    // (composite/controller.go:612-617).
    assertThat(mc.events())
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.toString())
                  .startsWith(
                      "Warning SyncError Thing default/a: Sync error: can't reconcile "
                          + "children for Thing default/a: [can't create ConfigMap default/a-data: ConfigMap \"a-data\" is invalid");
              assertThat(event.count()).isEqualTo(mc.syncErrors().size()).isEqualTo(4);
            });
  }

  /**
   * Go's list-map rebuild (pkg/dynamic/apply/apply.go:160-167) turns the observed ports {@code [dns 53/UDP,
   * dns-tcp 53/TCP]}, merged by {@code port}, into {@code [dns-tcp, dns-tcp]}; the API server refuses that
   * update on every sync. Intended: a list whose merge key repeats is replaced whole and settles.
   */
  @Test
  void aServiceWithOnePortOverTwoProtocolsIsRefusedOnEveryUpdateOnV4172() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        metacontroller(cluster, "dns", "services", "InPlace").profile(Profile.V4_17_2);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");

    assertThatThrownBy(() -> mc.runUntilStable(6))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("syncs keep failing")
        .hasMessageContaining(
            "Service \"a-dns\" is invalid: [spec.ports[1].name: Duplicate value: \"dns-tcp\", "
                + "spec.ports[1]: Duplicate value: {port: 53, protocol: TCP}]");
    assertThat(
            cluster.get("v1", "Service", "default", "a-dns").at("/spec/ports/0/protocol").asText())
        .as("as created")
        .isEqualTo("UDP");
  }

  @Test
  void aServiceWithOnePortOverTwoProtocolsSettlesWithBothUnderIntended() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        metacontroller(cluster, "dns", "services", "InPlace").profile(Profile.INTENDED);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");

    mc.runUntilStable(6);
    assertThat(cluster.get("v1", "Service", "default", "a-dns").at("/spec/ports")).hasSize(2);
  }

  /** claimOwnership (pkg/controller/common/manage_children.go:507-518) adds no reference when one has the parent's uid. */
  @Test
  void aChildThatNamesItsParentAsControllerGetsNoSecondReference() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc = metacontroller(cluster, "ownref", "configmaps", "Recreate");
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");

    mc.runUntilStable(6);
    assertThat(cluster.get("v1", "ConfigMap", "default", "a-data").at("/metadata/ownerReferences"))
        .hasSize(1);
  }
}

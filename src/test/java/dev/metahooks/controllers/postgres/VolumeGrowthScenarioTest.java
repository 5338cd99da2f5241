package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.children.jobs.VolumeResize;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Write;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Project;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Growing the data volumes of a running cluster under the emulated Metacontroller: the real manifest and hooks, the
 * API server's StatefulSet rules (claim templates immutable), the StatefulSet controller adopting orphaned pods, and
 * the resize Job doing what its script does (ResizeVolumesScriptIT runs the script itself): patch each claim,
 * then delete the StatefulSet with propagationPolicy Orphan.
 */
class VolumeGrowthScenarioTest {
  private static final String NS = "default";
  private static final String NAME = "orders";
  private static final String CLASS = "standard";

  private Cluster cluster;
  private PostgresParent orders;
  private LocalHooks hooks;
  private Metacontroller mc;

  /** The StatefulSet's claim template sizes in every write of it, in order. */
  private final List<String> resizeJobsSeen = new ArrayList<>();

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    ObjectNode storageClass =
        Json.object().put("apiVersion", "storage.k8s.io/v1").put("kind", "StorageClass");
    storageClass
        .putObject("metadata")
        .put("name", CLASS)
        .putObject("annotations")
        .put("storageclass.kubernetes.io/is-default-class", "true");
    storageClass.put("provisioner", "csi.example.com").put("allowVolumeExpansion", false);
    cluster.create(storageClass);
    orders = new PostgresParent(cluster, NS, NAME);
    hooks =
        LocalHooks.start(PostgresClusterController.controller(PostgresEmulation.sources(cluster)));
    mc = PostgresEmulation.metacontroller(cluster, hooks, Duration.ofSeconds(10));
    mc.world().add("resize-job", this::runResizeJobs);
    cluster.createFile("manifests/examples/postgrescluster-ha.yaml");
    mc.runUntilStable(60);
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  /** The docs' example: the StorageClass, and the spec's new size. */
  static List<ObjectNode> docsExample() throws IOException {
    String block =
        MarkdownBlocks.first("docs/postgrescluster/operations.md", "Growing volumes", "yaml");
    List<ObjectNode> documents = new ArrayList<>();
    try (MappingIterator<ObjectNode> values =
        new YAMLMapper().readerFor(ObjectNode.class).readValues(block)) {
      values.forEachRemaining(documents::add);
    }
    assertThat(documents).hasSize(2);
    return documents;
  }

  @Test
  void growingARunningClusterPatchesTheClaimsAndRecreatesTheStatefulSetWithoutTouchingAPod()
      throws IOException {
    List<ObjectNode> example = docsExample();
    ObjectNode storageClass = example.get(0);
    storageClass
        .withObjectProperty("metadata")
        .put(
            "resourceVersion",
            cluster
                .get("storage.k8s.io/v1", "StorageClass", "", CLASS)
                .at("/metadata/resourceVersion")
                .asText());
    cluster.update(storageClass);
    Map<String, String> pods = podUids();
    String oldSet = uid(statefulSet());
    long before = cluster.lastSequence();

    String size = example.get(1).at("/spec/storage/size").asText();
    assertThat(size).isEqualTo("20Gi");
    orders.edit(spec -> spec.withObjectProperty("storage").put("size", size));
    mc.round();
    JsonNode resizing = orders.get().at("/status/volumeResize");
    assertThat(resizing.path("step").asText()).isEqualTo("Resizing");
    assertThat(resizing.path("size").asText()).isEqualTo("20Gi");
    mc.runUntilStable(60);

    assertThat(podUids()).as("no pod deleted or replaced").isEqualTo(pods);
    assertThat(deletedSince(before))
        .noneMatch(object -> object.startsWith("Pod "))
        .contains("StatefulSet " + NS + "/" + NAME);
    ObjectNode set = statefulSet();
    assertThat(uid(set)).as("a new StatefulSet").isNotEqualTo(oldSet);
    assertThat(set.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText())
        .isEqualTo("20Gi");
    for (ObjectNode pod : cluster.list("v1", "Pod", NS)) {
      assertThat(pod.at("/metadata/ownerReferences/0/uid").asText())
          .as("adopted by the new set")
          .isEqualTo(uid(set));
    }
    for (String claim : List.of("pgdata-orders-0", "pgdata-orders-1", "pgdata-orders-2")) {
      ObjectNode pvc = cluster.get("v1", "PersistentVolumeClaim", NS, claim);
      assertThat(pvc.at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
      assertThat(pvc.at("/status/capacity/storage").asText()).isEqualTo("20Gi");
      assertThat(pvc.path("metadata").has("ownerReferences")).as("never a child").isFalse();
    }
    assertThat(resizeJobsSeen).as("one Job ran").hasSize(1);
    assertThat(cluster.list("batch/v1", "Job", NS))
        .noneMatch(job -> name(job).startsWith(NAME + "-resize-"));
    assertThat(orders.get().at("/status").has("volumeResize")).isFalse();
    assertThat(orders.condition("SpecValid").path("status").asText()).isEqualTo("True");
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    for (ObjectNode child : cluster.list("apps/v1", "StatefulSet", NS)) {
      KubeSchema.assertValid(child);
    }
    PostgresEmulation.assertQuiet(mc, orders::get);
  }

  @Test
  void aStorageClassWithoutExpansionIsRefusedAndMovesNothingUntilItAllowsIt() {
    Map<String, String> pods = podUids();
    String set = uid(statefulSet());
    orders.edit(spec -> spec.withObjectProperty("storage").put("size", "20Gi"));
    mc.runUntilStable(60);
    JsonNode specValid = orders.condition("SpecValid");
    assertThat(specValid.path("status").asText()).isEqualTo("False");
    assertThat(specValid.path("message").asText())
        .isEqualTo(
            "spec.storage.size: cannot grow from 10Gi to 20Gi: "
                + "StorageClass standard does not allow volume expansion (allowVolumeExpansion is not true)");
    assertThat(uid(statefulSet())).isEqualTo(set);
    assertThat(claimRequests()).containsOnly("10Gi");
    assertThat(resizeJobsSeen).isEmpty();

    allowExpansion(true);
    mc.runUntilStable(60);
    assertThat(orders.condition("SpecValid").path("status").asText()).isEqualTo("True");
    assertThat(claimRequests()).containsOnly("20Gi");
    assertThat(podUids()).isEqualTo(pods);
  }

  @Test
  void aSmallerSizeIsRefusedAndMovesNothing() {
    allowExpansion(true);
    String set = uid(statefulSet());
    // The CRD's transition rule refuses it first; an object older than the rule (or CEL off)
    // reaches the hook.
    cluster.update(
        "metahooks.dev/v1alpha1",
        "PostgresCluster",
        NS,
        NAME,
        parent -> {
          parent.withObjectProperty("spec").withObjectProperty("storage").put("size", "5Gi");
        });
    mc.runUntilStable(60);
    JsonNode specValid = orders.condition("SpecValid");
    assertThat(specValid.path("status").asText()).isEqualTo("False");
    assertThat(specValid.path("message").asText())
        .startsWith("spec.storage.size: cannot shrink from 10Gi to 5Gi");
    assertThat(uid(statefulSet())).isEqualTo(set);
    assertThat(claimRequests()).containsOnly("10Gi");
  }

  // ---- the resize Job, as its script acts

  /** A resize Job whose StatefulSet still has the smaller template: patch each claim, delete the set orphaning. */
  private void runResizeJobs(Cluster c) {
    for (ObjectNode job : c.list("batch/v1", "Job", NS)) {
      if (!VolumeResize.COMPONENT.equals(
          job.at("/metadata/labels/" + Labels.COMPONENT.replace("/", "~1")).asText())) {
        continue;
      }
      List<String> args = new ArrayList<>();
      job.at("/spec/template/spec/containers/0/command").forEach(arg -> args.add(arg.asText()));
      List<String> given = args.subList(args.indexOf("resize-volumes") + 1, args.size());
      String size = given.get(0);
      String setName = given.get(1);
      boolean smaller =
          c.find("apps/v1", "StatefulSet", NS, setName)
              .map(
                  set ->
                      !set.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage")
                          .asText()
                          .equals(size))
              .orElse(false);
      if (!smaller) {
        continue;
      }
      resizeJobsSeen.add(name(job));
      for (String claim : given.subList(2, given.size())) {
        c.update(
            "v1",
            "PersistentVolumeClaim",
            NS,
            claim,
            pvc ->
                pvc.withObjectProperty("spec")
                    .withObjectProperty("resources")
                    .withObjectProperty("requests")
                    .put("storage", size));
      }
      c.delete("apps/v1", "StatefulSet", NS, setName, Cluster.Propagation.ORPHAN);
    }
  }

  // ---- helpers

  private void allowExpansion(boolean allowed) {
    cluster.update(
        "storage.k8s.io/v1",
        "StorageClass",
        "",
        CLASS,
        c -> c.put("allowVolumeExpansion", allowed));
  }

  private ObjectNode statefulSet() {
    return cluster.get("apps/v1", "StatefulSet", NS, NAME);
  }

  private List<String> claimRequests() {
    return cluster.list("v1", "PersistentVolumeClaim", NS).stream()
        .map(claim -> claim.at("/spec/resources/requests/storage").asText())
        .toList();
  }

  private Map<String, String> podUids() {
    Map<String, String> uids = new TreeMap<>();
    cluster.list("v1", "Pod", NS).forEach(pod -> uids.put(name(pod), uid(pod)));
    return uids;
  }

  private List<String> deletedSince(long sequence) {
    return cluster.writesAfter(sequence).stream()
        .filter(w -> w.verb() == Write.Verb.DELETE)
        .map(Write::object)
        .toList();
  }

  private static String uid(JsonNode object) {
    return object.path("metadata").path("uid").asText();
  }

  private static String name(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }
}

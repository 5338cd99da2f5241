package dev.metahooks.properties;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.PodPolicy;
import dev.metahooks.emulator.Round;
import dev.metahooks.testsupport.Project;
import java.util.List;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.UniqueElements;

/**
 * Every composite controller, with its manifest and sample under the emulated Metacontroller, reaches a
 * fixed point for a few generated variations of its sample (and a second change after the first one):
 * once the rounds settle, one more round writes nothing. A controller whose answer changed on every call
 * (a timestamp, an unstable order) would make Metacontroller write forever.
 */
class ConvergencePropertiesTest {
  private static final int TRIES = 3;
  private static final int MAX_ROUNDS = 40;

  /** A scenario: the controller's manifest and sample, a change before the first sync and one after it settled. */
  private static void settles(
      String manifest, String sample, Consumer<Cluster> before, Consumer<Cluster> after) {
    settles(manifest, sample, mc -> {}, before, after);
  }

  private static void settles(
      String manifest,
      String sample,
      Consumer<Metacontroller> world,
      Consumer<Cluster> before,
      Consumer<Cluster> after) {
    Cluster cluster = Project.cluster();
    Metacontroller mc = Project.metacontroller(cluster, manifest);
    world.accept(mc);
    cluster.createFile(sample);
    before.accept(cluster);
    mc.runUntilStable(MAX_ROUNDS);
    after.accept(cluster);
    mc.runUntilStable(MAX_ROUNDS);

    Round oneMore =
        mc.resyncAll().round(); // a relist syncs every parent, with nothing new to react to
    assertThat(oneMore.calls()).as("hook calls of the last round").isNotEmpty();
    assertThat(oneMore.writes()).as("writes after the rounds settled").isEmpty();
    assertThat(oneMore.errors()).as("sync errors after the rounds settled").isEmpty();
  }

  private static Consumer<Cluster> spec(
      String apiVersion, String kind, String namespace, String name, Consumer<ObjectNode> change) {
    return cluster ->
        cluster.update(
            apiVersion, kind, namespace, name, parent -> change.accept(parent.withObject("/spec")));
  }

  /** Short text as a person would put in a spec, accents and spaces included. */
  @Provide
  Arbitrary<String> words() {
    return Arbitraries.strings()
        .alpha()
        .numeric()
        .withChars(' ', '-', '\u00e9', '\u4e16')
        .ofMaxLength(12);
  }

  @Provide
  Arbitrary<String> images() {
    return Arbitraries.of("nginx:1.26.2", "nginx:1.27", "nginx:1.28-alpine");
  }

  @Property(tries = TRIES)
  void bluegreen(
      @ForAll @IntRange(max = 4) int replicas,
      @ForAll("images") String image,
      @ForAll @IntRange(max = 4) int replicasLater,
      @ForAll("images") String imageLater) {
    settles(
        "metacontroller/bluegreen.yaml",
        "manifests/examples/bluegreen.yaml",
        spec(
            "ctl.enisoc.com/v1",
            "BlueGreenDeployment",
            "default",
            "nginx",
            s -> {
              s.put("replicas", replicas);
              s.withObject("/template/spec/containers/0").put("image", image);
            }),
        spec(
            "ctl.enisoc.com/v1",
            "BlueGreenDeployment",
            "default",
            "nginx",
            s -> {
              s.put("replicas", replicasLater);
              s.withObject("/template/spec/containers/0").put("image", imageLater);
            }));
  }

  @Property(tries = TRIES)
  void catset(
      @ForAll @IntRange(max = 4) int replicas, @ForAll @IntRange(max = 4) int replicasLater) {
    settles(
        "metacontroller/catset.yaml",
        "manifests/examples/catset.yaml",
        spec(
            "ctl.enisoc.com/v1",
            "CatSet",
            "default",
            "nginx-backend",
            s -> s.put("replicas", replicas)),
        spec(
            "ctl.enisoc.com/v1",
            "CatSet",
            "default",
            "nginx-backend",
            s -> s.put("replicas", replicasLater)));
  }

  @Property(tries = TRIES)
  void configmapList(@ForAll @IntRange(max = 3) int labelled, @ForAll boolean everyNamespace) {
    settles(
        "metacontroller/configmap-list.yaml",
        "manifests/examples/configmap-list.yaml",
        cluster -> {
          for (int i = 0; i < labelled; i++) {
            cluster.create(
                configMap(i % 2 == 0 ? "source-ns" : "target-ns", "extra-" + i, "my-app"));
          }
        },
        spec(
            "examples.metacontroller.io/v1alpha1",
            "ConfigMapList",
            "target-ns",
            "my-config-list",
            s -> {
              if (everyNamespace) {
                s.remove("sourceNamespace");
              }
            }));
  }

  @Provide
  Arbitrary<List<String>> targetNamespaces() {
    return Arbitraries.of("one", "two", "three", "original", "absent").list().ofMaxSize(4);
  }

  @Property(tries = TRIES)
  void configmapPropagation(
      @ForAll("targetNamespaces") List<String> targets,
      @ForAll("targetNamespaces") List<String> targetsLater) {
    settles(
        "metacontroller/configmap-propagation.yaml",
        "manifests/examples/configmap-propagation.yaml",
        spec(
            "examples.metacontroller.io/v1alpha1",
            "ConfigMapPropagation",
            "",
            "settings-propagation",
            s -> targets(s, targets)),
        spec(
            "examples.metacontroller.io/v1alpha1",
            "ConfigMapPropagation",
            "",
            "settings-propagation",
            s -> targets(s, targetsLater)));
  }

  private static void targets(ObjectNode spec, List<String> namespaces) {
    ArrayNode list = spec.putArray("targetNamespaces");
    namespaces.forEach(list::add);
  }

  @Property(tries = TRIES)
  void daemonjob(@ForAll @IntRange(min = 1, max = 3) int nodes, @ForAll boolean ready) {
    settles(
        "metacontroller/daemonjob.yaml",
        "manifests/examples/daemonjob.yaml",
        mc -> mc.world().nodes(nodes).workloadsReady(ready),
        cluster -> {},
        cluster -> {});
  }

  @Property(tries = TRIES)
  void globalConfigmap(@ForAll @IntRange(max = 3) int namespaces, @ForAll boolean deleteOne) {
    settles(
        "metacontroller/global-configmap.yaml",
        "manifests/examples/global-configmap.yaml",
        cluster -> {
          for (int i = 0; i < namespaces; i++) {
            cluster.create(namespace("extra-" + i, "x"));
          }
        },
        cluster -> {
          if (deleteOne) {
            cluster.delete("v1", "Namespace", "first");
          }
        });
  }

  @Property(tries = TRIES)
  void helloWorld(@ForAll("words") String who, @ForAll("words") String whoLater) {
    settles(
        "metacontroller/hello-world.yaml",
        "manifests/examples/hello-world.yaml",
        spec("example.com/v1", "HelloWorld", "default", "your-name", s -> s.put("who", who)),
        spec("example.com/v1", "HelloWorld", "default", "your-name", s -> s.put("who", whoLater)));
  }

  @Provide
  Arbitrary<PodPolicy> podPolicies() {
    // Not PodPolicy.pendingFor: it counts steps in the policy without writing anything, so a round
    // in which a
    // Pod only waits looks settled to the emulator although the Pod will move on later.
    return Arbitraries.of(PodPolicy.ready(), PodPolicy.succeeded(), PodPolicy.failed());
  }

  @Property(tries = TRIES)
  void indexedjob(
      @ForAll @IntRange(max = 5) int completions,
      @ForAll @IntRange(min = 1, max = 3) int parallelism,
      @ForAll("podPolicies") PodPolicy pods) {
    settles(
        "metacontroller/indexedjob.yaml",
        "manifests/examples/indexedjob.yaml",
        mc -> mc.world().pods(pods),
        spec(
            "ctl.enisoc.com/v1",
            "IndexedJob",
            "default",
            "print-index",
            s -> {
              s.put("completions", completions);
              s.put("parallelism", parallelism);
            }),
        cluster -> {});
  }

  @Property(tries = TRIES)
  void namespaceList(
      @ForAll @UniqueElements @Size(max = 3) List<@IntRange(max = 5) Integer> labelled,
      @ForAll boolean unlabelFirst) {
    settles(
        "metacontroller/namespace-list.yaml",
        "manifests/examples/namespace-list.yaml",
        cluster ->
            labelled.forEach(i -> cluster.create(namespace("listed-" + i, "namespace-list"))),
        cluster -> {
          if (unlabelFirst && !labelled.isEmpty()) {
            cluster.update(
                "v1",
                "Namespace",
                "",
                "listed-" + labelled.get(0),
                ns -> ns.withObject("/metadata").remove("labels"));
          }
        });
  }

  @Property(tries = TRIES)
  void postgrescluster(
      @ForAll @IntRange(min = 1, max = 3) int instances,
      @ForAll @IntRange(max = 3) int instancesLater) {
    settles(
        "metacontroller/postgrescluster.yaml",
        "manifests/examples/postgrescluster-dev.yaml",
        spec(
            "metahooks.dev/v1alpha1",
            "PostgresCluster",
            "default",
            "pg-dev",
            s -> s.put("instances", instances)),
        spec(
            "metahooks.dev/v1alpha1",
            "PostgresCluster",
            "default",
            "pg-dev",
            s -> s.put("instances", instancesLater)));
  }

  @Property(tries = TRIES)
  void secretPropagation(
      @ForAll @Size(max = 3) List<Boolean> labels, @ForAll boolean relabelGamma) {
    settles(
        "metacontroller/secret-propagation.yaml",
        "manifests/examples/secret-propagation.yaml",
        cluster -> {
          for (int i = 0; i < labels.size(); i++) {
            cluster.create(namespace("extra-" + i, labels.get(i) ? "true" : "false"));
          }
        },
        cluster -> {
          if (relabelGamma) {
            cluster.update(
                "v1",
                "Namespace",
                "",
                "gamma",
                ns -> ns.withObject("/metadata").withObject("labels").put("propagate", "true"));
          }
        });
  }

  @Property(tries = TRIES)
  void updateStrategy(@ForAll("words") String data, @ForAll("words") String dataLater) {
    settles(
        "metacontroller/update-strategy.yaml",
        "manifests/examples/update-strategy.yaml",
        cluster -> {
          spec(
                  "ctl.example.com/v1",
                  "OnDeleteDemo",
                  "default",
                  "odd-instance",
                  s -> s.put("configData", data))
              .accept(cluster);
          spec(
                  "ctl.example.com/v1",
                  "RecreateDemo",
                  "default",
                  "rcd-instance",
                  s -> s.put("configData", data))
              .accept(cluster);
        },
        cluster -> {
          spec(
                  "ctl.example.com/v1",
                  "OnDeleteDemo",
                  "default",
                  "odd-instance",
                  s -> s.put("configData", dataLater))
              .accept(cluster);
          spec(
                  "ctl.example.com/v1",
                  "RecreateDemo",
                  "default",
                  "rcd-instance",
                  s -> s.put("configData", dataLater))
              .accept(cluster);
        });
  }

  private static ObjectNode configMap(String namespace, String name, String app) {
    ObjectNode configMap =
        dev.metahooks.api.Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap
        .putObject("metadata")
        .put("name", name)
        .put("namespace", namespace)
        .putObject("labels")
        .put("app", app);
    configMap.putObject("data").put("key", name);
    return configMap;
  }

  /** A Namespace with the labels namespace-list ({@code example-controller}) and secret-propagation select. */
  private static ObjectNode namespace(String name, String label) {
    ObjectNode namespace =
        dev.metahooks.api.Json.object().put("apiVersion", "v1").put("kind", "Namespace");
    namespace
        .putObject("metadata")
        .put("name", name)
        .putObject("labels")
        .put("example-controller", label)
        .put("propagate", label);
    return namespace;
  }
}

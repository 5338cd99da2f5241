package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** When v4.17.2 syncs a parent: on events of it and its children, at resyncAfterSeconds and resyncPeriodSeconds. */
class TriggersTest {
  private static LocalHooks hooks;

  /** One ConfigMap; resyncAfterSeconds from spec.resync (0 when absent). */
  static CompositeResponse timed(CompositeRequest request) {
    return CompositeResponse.of(Json.object(), List.of(TestKinds.configMap(request.name() + "-c", "k", "v")))
        .withResyncAfterSeconds(request.parent().path("spec").path("resync").asDouble(0));
  }

  @BeforeAll
  static void startHooks() {
    hooks = LocalHooks.start(Controller.composite("timed").sync(TriggersTest::timed).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private Cluster cluster;

  private Metacontroller settled(Profile profile, String extraSpec, String parentSpec) {
    return settled(profile, extraSpec, parentSpec, "");
  }

  /** A settled Thing; {@code extraSpec} goes into parentResource, {@code specLine} into the controller spec. */
  private Metacontroller settled(Profile profile, String extraSpec, String parentSpec, String specLine) {
    cluster = TestKinds.cluster();
    Metacontroller mc = new Metacontroller(cluster, hooks.baseUrl()).profile(profile).loadYaml("""
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: timed-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: things %s}
          childResources: [{apiVersion: v1, resource: configmaps, updateStrategy: {method: InPlace}}]
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/timed/sync"}}}
          %s
        """.formatted(extraSpec, specLine));
    cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: " + parentSpec + "}");
    mc.runUntilStable(10);
    return mc;
  }

  private static int callsOf(Round round) {
    return round.calls().size();
  }

  @Test
  void withoutAnEventNothingIsSyncedOnV4172AndEverythingEveryRoundAsIntended() {
    assertThat(callsOf(settled(Profile.V4_17_2, "", "{}").round())).isZero();
    assertThat(callsOf(settled(Profile.INTENDED, "", "{}").round())).isEqualTo(1);
  }

  @Test
  void aChildsChangeIsAnEventForItsParent() {
    Metacontroller mc = settled(Profile.V4_17_2, "", "{}");
    cluster.update("v1", "ConfigMap", "default", "t-c", c -> c.withObject("/metadata").putObject("labels")
        .put("controller-uid", Meta.uid(cluster.get(TestKinds.API_VERSION, "Thing", "default", "t"))).put("x", "y"));
    assertThat(callsOf(mc.round())).isEqualTo(1);
    assertThat(callsOf(mc.round())).isZero();
  }

  @Test
  void resyncAfterSecondsComesWhenTheClockReachesIt() {
    Metacontroller mc = settled(Profile.V4_17_2, "", "{resync: 30}");
    cluster.advance(Duration.ofSeconds(29));
    assertThat(callsOf(mc.round())).isZero();
    cluster.advance(Duration.ofSeconds(1));
    assertThat(callsOf(mc.round())).isEqualTo(1);
  }

  @Test
  void resyncPeriodSecondsSyncsEveryParentEachPeriod() {
    Metacontroller mc = settled(Profile.V4_17_2, "", "{}", "resyncPeriodSeconds: 60");
    cluster.advance(Duration.ofSeconds(59));
    assertThat(callsOf(mc.round())).isZero();
    cluster.advance(Duration.ofSeconds(1));
    assertThat(callsOf(mc.round())).isEqualTo(1);
  }

  @Test
  void ignoreStatusChangesDropsStatusOnlyUpdatesButNotLabelChanges() {
    Metacontroller ignoring = settled(Profile.V4_17_2, ", ignoreStatusChanges: true", "{}");
    cluster.updateStatus(TestKinds.API_VERSION, "Thing", "default", "t", t -> t.putObject("status").put("x", 1));
    assertThat(callsOf(ignoring.round())).isZero();
    cluster.update(TestKinds.API_VERSION, "Thing", "default", "t", t -> t.withObject("/metadata").putObject("labels")
        .put("a", "b"));
    assertThat(callsOf(ignoring.round())).isEqualTo(1);

    Metacontroller watching = settled(Profile.V4_17_2, "", "{}");
    cluster.updateStatus(TestKinds.API_VERSION, "Thing", "default", "t", t -> t.putObject("status").put("x", 1));
    assertThat(callsOf(watching.round())).isEqualTo(1);
  }
}

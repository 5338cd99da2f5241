package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
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
    return CompositeResponse.of(
            Json.object(), List.of(TestKinds.configMap(request.name() + "-c", "k", "v")))
        .withResyncAfterSeconds(request.parent().path("spec").path("resync").asDouble(0));
  }

  /** Related: the Secrets labelled {@code watched: "yes"} (a v1 customize hook, so in the parent's namespace). */
  static CustomizeResponse watched(CustomizeRequest request) {
    ObjectNode selector = Json.object();
    selector.putObject("matchLabels").put("watched", "yes");
    return new CustomizeResponse(
        List.of(RelatedResourceRule.of("v1", "secrets").withLabelSelector(selector)));
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("timed").sync(TriggersTest::timed).build(),
            Controller.composite("watching")
                .sync(TriggersTest::timed)
                .customize(TriggersTest::watched)
                .build());
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
  private Metacontroller settled(
      Profile profile, String extraSpec, String parentSpec, String specLine) {
    return settled(profile, extraSpec, parentSpec, specLine, "timed");
  }

  private Metacontroller settled(
      Profile profile, String extraSpec, String parentSpec, String specLine, String hook) {
    cluster = TestKinds.cluster();
    Metacontroller mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .profile(profile)
            .loadYaml(
                """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: timed-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: things %1$s}
          childResources: [{apiVersion: v1, resource: configmaps, updateStrategy: {method: InPlace}}]
          hooks:
            sync: {webhook: {url: "http://metahooks.metahooks/%3$s/sync"}}
            %4$s
          %2$s
        """
                    .formatted(
                        extraSpec,
                        specLine,
                        hook,
                        hook.equals("watching")
                            ? "customize: {webhook: {url: \"http://metahooks.metahooks/watching/customize\"}}"
                            : ""));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: "
            + parentSpec
            + "}");
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
    cluster.update(
        "v1",
        "ConfigMap",
        "default",
        "t-c",
        c ->
            c.withObject("/metadata")
                .putObject("labels")
                .put(
                    "controller-uid",
                    Meta.uid(cluster.get(TestKinds.API_VERSION, "Thing", "default", "t")))
                .put("x", "y"));
    assertThat(callsOf(mc.round())).isEqualTo(1);
    assertThat(callsOf(mc.round())).isZero();
  }

  /** findPotentialParents (composite/controller.go:555-583): only parents whose selector matches the orphan. */
  @Test
  void anOrphanIsAnEventOnlyForTheParentsWhoseSelectorMatchesIt() {
    Metacontroller mc = settled(Profile.V4_17_2, "", "{}");
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: stray, labels: {controller-uid: someone-else}}}");
    assertThat(callsOf(mc.round())).isZero();

    String uid = Meta.uid(cluster.get(TestKinds.API_VERSION, "Thing", "default", "t"));
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: mine, labels: {controller-uid: "
            + uid
            + "}}}");
    assertThat(callsOf(mc.round())).as("a matching orphan: the parent may adopt it").isEqualTo(1);
  }

  /** notifyRelatedParents (customize/manager.go:310-351): a related event by the rules, old state or new. */
  @Test
  void aRelatedObjectIsAnEventOnlyWhenTheParentsRulesSelectIt() {
    Metacontroller mc = settled(Profile.V4_17_2, "", "{}", "", "watching");
    cluster.create(
        "{apiVersion: v1, kind: Secret, metadata: {name: other, labels: {watched: \"no\"}}}");
    assertThat(callsOf(mc.round())).as("a Secret the rules do not select").isZero();

    cluster.create(
        "{apiVersion: v1, kind: Secret, metadata: {name: watched, labels: {watched: \"yes\"}}}");
    assertThat(callsOf(mc.round())).isEqualTo(1);
    cluster.update(
        "v1",
        "Secret",
        "default",
        "watched",
        s -> s.withObject("/metadata/labels").put("watched", "no"));
    assertThat(callsOf(mc.round())).as("selected in its old state").isEqualTo(1);
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

  /** One ticker per controller from its start, every parent at each tick, not a period per parent. */
  @Test
  void resyncPeriodSecondsTicksFromTheControllersStartForEveryParentAtOnce() {
    Metacontroller mc = settled(Profile.V4_17_2, "", "{}", "resyncPeriodSeconds: 60");
    cluster.advance(Duration.ofSeconds(30));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: later}, spec: {}}");
    mc.runUntilStable(10);
    cluster.advance(Duration.ofSeconds(30));
    assertThat(callsOf(mc.round()))
        .as("the controller's tick at 60 s: the parent made at 30 s too")
        .isEqualTo(2);
    cluster.advance(Duration.ofSeconds(30));
    assertThat(callsOf(mc.round())).as("90 s: no tick").isZero();
  }

  /**
   * A handler gets a resync timer of its own only when its period is shorter than the informer's relist
   * (pkg/dynamic/informer/informer.go:284-288): at 29 min 59 s it ticks, at 45 min there is no tick, only the
   * relist's resync every 30 minutes.
   */
  @Test
  void aResyncPeriodOfThirtyMinutesOrMoreHasNoTimerOfItsOwn() {
    Metacontroller ticking = settled(Profile.V4_17_2, "", "{}", "resyncPeriodSeconds: 1799");
    cluster.advance(Duration.ofSeconds(1799));
    assertThat(callsOf(ticking.round())).isEqualTo(1);

    Metacontroller relisting = settled(Profile.V4_17_2, "", "{}", "resyncPeriodSeconds: 2700");
    cluster.advance(Duration.ofMinutes(30));
    assertThat(callsOf(relisting.round())).as("the relist at 30 min").isEqualTo(1);
    cluster.advance(Duration.ofMinutes(15));
    assertThat(callsOf(relisting.round())).as("45 min: no timer of its own").isZero();
    cluster.advance(Duration.ofMinutes(15));
    assertThat(callsOf(relisting.round())).as("the relist at 60 min").isEqualTo(1);
  }

  /** --cache-flush-interval (30 min, pkg/cmd/metacontroller/main.go:46): the informers resync every parent. */
  @Test
  void everyThirtyMinutesTheInformersResyncEveryParent() {
    Metacontroller mc = settled(Profile.V4_17_2, "", "{}");
    cluster.advance(Duration.ofMinutes(29));
    assertThat(callsOf(mc.round())).isZero();
    cluster.advance(Duration.ofMinutes(1));
    assertThat(callsOf(mc.round())).isEqualTo(1);
    assertThat(callsOf(mc.round())).isZero();
  }

  @Test
  void ignoreStatusChangesDropsStatusOnlyUpdatesButNotLabelChanges() {
    Metacontroller ignoring = settled(Profile.V4_17_2, ", ignoreStatusChanges: true", "{}");
    cluster.updateStatus(
        TestKinds.API_VERSION, "Thing", "default", "t", t -> t.putObject("status").put("x", 1));
    assertThat(callsOf(ignoring.round())).isZero();
    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "t",
        t -> t.withObject("/metadata").putObject("labels").put("a", "b"));
    assertThat(callsOf(ignoring.round())).isEqualTo(1);

    Metacontroller watching = settled(Profile.V4_17_2, "", "{}");
    cluster.updateStatus(
        TestKinds.API_VERSION, "Thing", "default", "t", t -> t.putObject("status").put("x", 1));
    assertThat(callsOf(watching.round())).isEqualTo(1);
  }
}

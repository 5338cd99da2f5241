package dev.metahooks.properties;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.properties.Replies.Reply;
import dev.metahooks.testsupport.RequestMaps;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;
import org.junit.jupiter.api.Test;

/**
 * What each controller must at least (and at most) ask for, over requests generated from its fixtures: a
 * rule per controller, only where the controller's contract defines one. An answer with fewer children than
 * that would make Metacontroller delete something still wanted.
 */
@StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
class ChildCountPropertiesTest {
  private static final int TRIES = 150;

  @Provide
  Arbitrary<GeneratedRequest> catset() {
    return GeneratedRequest.of("catset");
  }

  /**
   * catset keeps every Pod below {@code replicas} but the one its own roll replaces (metacontroller/catset.yaml has
   * the Pods {@code OnDelete}: the hook leaves out one Pod built from another template, whose template-hash is not
   * the one it stamps now), adds or removes at most one Pod per sync (one at a time, in ordinal order), and always
   * asks for the claims of every ordinal below {@code replicas}.
   */
  @Property(tries = TRIES, edgeCases = EdgeCasesMode.NONE)
  void catsetKeepsWantedPodsAndClaims(@ForAll("catset") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    JsonNode replicas = request.at("/parent/spec/replicas");
    boolean applies =
        !finalizing(generated, request) && replicas.isIntegralNumber() && replicas.asInt() >= 0;
    Reply reply = checked(generated, request, applies);
    if (reply == null) {
      return;
    }
    String name = request.at("/parent/metadata/name").asText();
    Set<Long> observed = ordinals(name, names(request.at("/children").path("Pod.v1")));
    List<JsonNode> children = reply.objects();
    Set<Long> desired = ordinals(name, names(ofKind(children, "Pod")));
    int wanted = replicas.asInt();

    Set<String> stamped = new TreeSet<>();
    ofKind(children, "Pod").forEach(pod -> stamped.add(templateHash(pod)));
    int rolled = 0;
    for (JsonNode pod : request.at("/children").path("Pod.v1")) {
      long ordinal = ordinals(name, names(List.of(pod))).stream().findFirst().orElse(-1L);
      if (ordinal >= 0 && ordinal < wanted && !desired.contains(ordinal)) {
        rolled++;
        assertThat(stamped)
            .as("Pod %s-%s is still wanted, and built from this template", name, ordinal)
            .doesNotContain(templateHash(pod));
      }
    }
    assertThat(rolled).as("Pods the roll replaces at once").isLessThanOrEqualTo(1);
    assertThat(desired.size())
        .as("Pods move one at a time")
        .isBetween(observed.size() - 1, observed.size() + 1);
    Set<String> claims = new TreeSet<>(names(ofKind(children, "PersistentVolumeClaim")));
    for (JsonNode template : request.at("/parent/spec/volumeClaimTemplates")) {
      for (int ordinal = 0; ordinal < wanted; ordinal++) {
        assertThat(claims)
            .contains(template.at("/metadata/name").asText() + "-" + name + "-" + ordinal);
      }
    }
  }

  @Provide
  Arbitrary<GeneratedRequest> indexedjob() {
    return GeneratedRequest.of("indexedjob");
  }

  /**
   * indexedjob keeps every Pod it has (finished ones too) and, until the job is finished, starts exactly as
   * many missing indexes below {@code completions} as {@code parallelism} leaves room for beside the active ones.
   */
  @Property(tries = TRIES, edgeCases = EdgeCasesMode.NONE)
  void indexedjobStartsWhatParallelismAllows(@ForAll("indexedjob") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    long completions = countOrOne(request.at("/parent/spec/completions"));
    long parallelism = countOrOne(request.at("/parent/spec/parallelism"));
    boolean applies =
        completions >= 0 && parallelism >= 0 && !finishedJob(request.at("/parent/status"));
    Reply reply = checked(generated, request, applies);
    if (reply == null) {
      return;
    }
    String name = request.at("/parent/metadata/name").asText();
    Set<BigInteger> observed = new TreeSet<>();
    long active = 0;
    for (JsonNode pod : request.at("/children").path("Pod.v1")) {
      BigInteger index = index(name, pod.at("/metadata/name").asText());
      if (index != null) {
        observed.add(index);
        String phase = pod.at("/status/phase").asText();
        active += phase.equals("Succeeded") || phase.equals("Failed") ? 0 : 1;
      }
    }
    long missing = 0;
    for (long i = 0; i < completions; i++) {
      missing += observed.contains(BigInteger.valueOf(i)) ? 0 : 1;
    }
    long started = Math.min(Math.max(0, parallelism - active), missing);

    Set<BigInteger> desired = new TreeSet<>();
    for (String podName : names(ofKind(reply.objects(), "Pod"))) {
      desired.add(index(name, podName));
    }
    assertThat(desired).containsAll(observed);
    assertThat(desired).hasSize(observed.size() + (int) started);
    desired.removeAll(observed);
    assertThat(desired).allMatch(index -> index.compareTo(BigInteger.valueOf(completions)) < 0);
  }

  @Provide
  Arbitrary<GeneratedRequest> propagation() {
    return GeneratedRequest.of(
        List.of("configmap-propagation", "global-configmap", "secret-propagation"));
  }

  /**
   * The propagation controllers copy the source, once it is observed, into every target namespace present
   * but its own: the list in the spec (configmap-propagation) or the Namespaces Metacontroller selected
   * (global-configmap, secret-propagation). Without the source there is nothing to copy.
   */
  @Property(tries = 3 * TRIES, edgeCases = EdgeCasesMode.NONE)
  void propagationCopiesIntoEveryTargetNamespace(
      @ForAll("propagation") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    Reply reply = checked(generated, request, generated.hook().equals("sync"));
    if (reply == null) {
      return;
    }
    String kind = generated.controller().equals("secret-propagation") ? "Secret" : "ConfigMap";
    String sourceName = request.at("/parent/spec/sourceName").asText();
    String sourceNamespace = request.at("/parent/spec/sourceNamespace").asText();
    List<RequestMaps.Entry> related =
        RequestMaps.entries(request, generated.hook()).stream()
            .filter(e -> e.field().equals("related"))
            .toList();
    boolean sourceObserved =
        related.stream()
            .anyMatch(
                e ->
                    e.group().equals(kind + ".v1")
                        && e.namespace().equals(sourceNamespace)
                        && e.name().equals(sourceName));
    Set<String> targets = new LinkedHashSet<>();
    if (generated.controller().equals("configmap-propagation")) {
      request
          .at("/parent/spec/targetNamespaces")
          .forEach(namespace -> targets.add(namespace.asText()));
    } else {
      related.stream()
          .filter(e -> e.group().equals("Namespace.v1"))
          .forEach(e -> targets.add(e.name()));
    }
    targets.remove(sourceNamespace);
    Statistics.label("source observed").collect(sourceObserved);

    List<JsonNode> copies = reply.objects();
    if (!sourceObserved) {
      assertThat(copies).isEmpty();
      return;
    }
    assertThat(copies)
        .allMatch(
            c ->
                c.path("kind").asText().equals(kind)
                    && c.at("/metadata/name").asText().equals(sourceName));
    assertThat(
            copies.stream()
                .map(c -> c.at("/metadata/namespace").asText())
                .collect(Collectors.toSet()))
        .isEqualTo(targets);
    assertThat(copies).hasSize(targets.size());
  }

  @Provide
  Arbitrary<GeneratedRequest> servicePerPod() {
    return GeneratedRequest.of("service-per-pod");
  }

  /** service-per-pod asks for one Service per replica while syncing, and for none while finalizing. */
  @Property(tries = TRIES, edgeCases = EdgeCasesMode.NONE)
  void servicePerPodHasOneServicePerReplica(@ForAll("servicePerPod") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    Reply reply = checked(generated, request, true);
    if (reply == null) {
      return;
    }
    String name = request.at("/object/metadata/name").asText();
    List<String> expected = new ArrayList<>();
    if (!finalizing(generated, request)) {
      for (int i = 0; i < request.at("/object/spec/replicas").asInt(); i++) {
        expected.add(name + "-" + i);
      }
    }
    assertThat(names(reply.objects())).containsExactlyElementsOf(expected);
  }

  @Provide
  Arbitrary<GeneratedRequest> bluegreen() {
    return GeneratedRequest.of("bluegreen");
  }

  /** bluegreen always asks for its Service and both colors' ReplicaSets (an idle color scaled to zero). */
  @Property(tries = TRIES, edgeCases = EdgeCasesMode.NONE)
  void bluegreenAlwaysHasTheServiceAndBothColors(@ForAll("bluegreen") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    Reply reply = checked(generated, request, true);
    if (reply == null) {
      return;
    }
    String name = request.at("/parent/metadata/name").asText();
    assertThat(reply.objects())
        .extracting(c -> c.path("kind").asText() + "/" + c.at("/metadata/name").asText())
        .containsExactlyInAnyOrder(
            "Service/" + request.at("/parent/spec/service/metadata/name").asText(),
            "ReplicaSet/" + name + "-blue",
            "ReplicaSet/" + name + "-green");
  }

  @Provide
  Arbitrary<GeneratedRequest> daemonjob() {
    return GeneratedRequest.of("daemonjob");
  }

  /** daemonjob keeps its DaemonSet until its own status records that every scheduled pod was ready. */
  @Property(tries = TRIES, edgeCases = EdgeCasesMode.NONE)
  void daemonjobKeepsTheDaemonSetUntilDone(@ForAll("daemonjob") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    Reply reply = checked(generated, request, true);
    if (reply == null) {
      return;
    }
    JsonNode status = request.at("/parent/status");
    boolean done = status.isObject() && allReady(status);
    Statistics.label("done").collect(done);
    assertThat(ofKind(reply.objects(), "DaemonSet")).hasSize(done ? 0 : 1);
    assertThat(reply.objects()).hasSize(done ? 0 : 1);
  }

  @Provide
  Arbitrary<GeneratedRequest> postgrescluster() {
    return GeneratedRequest.of("postgrescluster");
  }

  /** The Progressing reasons of a scale-down that keeps the observed replicas. */
  private static final Set<String> HELD_SCALE_DOWN =
      Set.of("MovingPrimaryBeforeScaleDown", "WaitingForSwitchoverBeforeScaleDown");

  /**
   * postgrescluster never lets go of an observed Secret or of its StatefulSet while syncing (whatever the spec says),
   * and, when it renders the spec, runs {@code spec.instances} replicas, or keeps the observed replicas while a
   * scale-down waits for the primary to move (Progressing, MovingPrimaryBeforeScaleDown) or for a switchover on
   * request to end (WaitingForSwitchoverBeforeScaleDown).
   */
  @Property(tries = TRIES, edgeCases = EdgeCasesMode.NONE)
  void postgresKeepsDataAndRunsTheInstancesAskedFor(
      @ForAll("postgrescluster") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    Reply reply =
        checked(
            generated,
            request,
            !finalizing(generated, request) && !generated.hook().equals("customize"));
    if (reply == null) {
      return;
    }
    List<JsonNode> children = reply.objects();
    Set<String> desired =
        children.stream()
            .map(c -> c.path("kind").asText() + "/" + c.at("/metadata/name").asText())
            .collect(Collectors.toSet());
    for (JsonNode secret : request.at("/children").path("Secret.v1")) {
      assertThat(desired).contains("Secret/" + secret.at("/metadata/name").asText());
    }
    String cluster = request.at("/parent/metadata/name").asText();
    int observed = -1;
    for (JsonNode statefulSet : request.at("/children").path("StatefulSet.apps/v1")) {
      // The cluster's own StatefulSet holds the data; no other is ever made for it.
      if (statefulSet.at("/metadata/name").asText().equals(cluster)) {
        assertThat(desired).contains("StatefulSet/" + cluster);
        observed = statefulSet.at("/spec/replicas").asInt(-1);
      }
    }
    String phase = reply.json().at("/status/phase").asText();
    Statistics.label("phase").collect(phase);
    if (!phase.equals("Paused") && !phase.equals("Invalid")) {
      JsonNode instances = request.at("/parent/spec/instances");
      List<JsonNode> statefulSets = ofKind(children, "StatefulSet");
      assertThat(statefulSets).hasSize(1);
      int asked = instances.isMissingNode() ? 1 : instances.asInt();
      boolean held = false;
      for (JsonNode condition : reply.json().at("/status/conditions")) {
        held |= HELD_SCALE_DOWN.contains(condition.path("reason").asText());
      }
      Statistics.label("scale-down held").collect(held);
      assertThat(statefulSets.get(0).at("/spec/replicas").asInt())
          .isEqualTo(held ? observed : asked);
      if (held) {
        assertThat(observed).as("held above the count asked for").isGreaterThan(asked);
      }
    }
  }

  /** The name of the one object a controller of the one-object rule answers with, from the parent's name. */
  private static final Map<String, java.util.function.UnaryOperator<String>> ONE_OBJECT =
      Map.of(
          "hello-world", parent -> "Pod/" + parent,
          "update-strategy", parent -> "ConfigMap/" + parent + "-data",
          "configmap-list", parent -> "ConfigMap/" + parent + "-list",
          "namespace-list", parent -> "ConfigMap/" + parent + "-list",
          "crd-roles", parent -> "ClusterRole/" + parent + "-reader",
          "clustered-parent", parent -> "RoleBinding/" + parent);

  /** Controllers with a rule of their own above (the arbitrary of the same name). */
  private static final Set<String> OWN_RULE =
      Set.of(
          "catset",
          "indexedjob",
          "configmap-propagation",
          "global-configmap",
          "secret-propagation",
          "service-per-pod",
          "bluegreen",
          "daemonjob",
          "postgrescluster");

  /** Controllers whose contract sets no child count, and why. */
  private static final Map<String, String> NO_RULE =
      Map.of("pod-name-label", "a decorator that labels its target and attaches nothing");

  /**
   * Every controller of the catalog has a rule here (or a reason not to), so a new controller cannot be skipped
   * silently: it fails until its author says which rule it keeps.
   */
  @Test
  void everyControllerOfTheCatalogHasAChildCountRule() {
    for (String controller : GeneratedRequest.catalog()) {
      assertThat(
              ONE_OBJECT.containsKey(controller)
                  || OWN_RULE.contains(controller)
                  || NO_RULE.containsKey(controller))
          .as("%s has no child-count rule in ChildCountPropertiesTest", controller)
          .isTrue();
    }
  }

  @Provide
  Arbitrary<GeneratedRequest> oneChild() {
    return GeneratedRequest.of(
        GeneratedRequest.catalog().stream().filter(ONE_OBJECT::containsKey).toList());
  }

  /** The controllers whose whole answer is one object named after the parent, whatever is observed. */
  @Property(tries = 3 * TRIES, edgeCases = EdgeCasesMode.NONE)
  void oneObjectNamedAfterTheParent(@ForAll("oneChild") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    Reply reply = checked(generated, request, generated.hook().equals("sync"));
    if (reply == null) {
      return;
    }
    String parent =
        request.has("parent")
            ? request.at("/parent/metadata/name").asText()
            : request.at("/object/metadata/name").asText();
    String expected = ONE_OBJECT.get(generated.controller()).apply(parent);
    assertThat(reply.objects())
        .extracting(c -> c.path("kind").asText() + "/" + c.at("/metadata/name").asText())
        .containsExactly(expected);
  }

  /**
   * The answer to a request the rule applies to; null (and counted) otherwise. Generated requests are valid,
   * so where the rule applies the answer must be a 200.
   */
  private static Reply checked(GeneratedRequest generated, ObjectNode request, boolean applies) {
    Statistics.label("rule applies").collect(applies);
    Statistics.label("rule applies")
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 40));
    if (!applies) {
      return null;
    }
    Reply reply = Replies.call(generated.controller(), generated.hook(), request);
    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    return reply;
  }

  private static boolean finalizing(GeneratedRequest generated, ObjectNode request) {
    return request.path("finalizing").asBoolean(generated.hook().equals("finalize"));
  }

  /** The hash of the template a catset Pod was built from, as the hook stamps it ("" when it has none). */
  private static String templateHash(JsonNode pod) {
    return pod.at("/metadata/annotations").path("catsets.ctl.enisoc.com/template-hash").asText("");
  }

  private static List<JsonNode> ofKind(List<JsonNode> objects, String kind) {
    return objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
  }

  private static List<String> names(Iterable<JsonNode> objects) {
    List<String> names = new ArrayList<>();
    objects.forEach(o -> names.add(o.at("/metadata/name").asText()));
    return names;
  }

  private static final Pattern NUMBERED = Pattern.compile("(.*)-([0-9]+)");

  /** Ordinals of {@code <base>-<n>} names, as JavaScript numbers ({@code web-01} is 1). */
  private static Set<Long> ordinals(String base, List<String> names) {
    Set<Long> ordinals = new TreeSet<>();
    for (String name : names) {
      BigInteger index = index(base, name);
      if (index != null) {
        ordinals.add(index.longValue());
      }
    }
    return ordinals;
  }

  private static BigInteger index(String base, String name) {
    Matcher match = NUMBERED.matcher(name);
    return match.matches() && match.group(1).equals(base) ? new BigInteger(match.group(2)) : null;
  }

  /** A count as the upstream hooks read it, 1 when absent; -1 when it is not a whole number. */
  private static long countOrOne(JsonNode value) {
    if (value.isMissingNode()) {
      return 1;
    }
    return value.isIntegralNumber() ? value.asLong() : -1;
  }

  private static boolean finishedJob(JsonNode status) {
    for (JsonNode condition : status.path("conditions")) {
      String type = condition.path("type").asText();
      if ((type.equals("Complete") || type.equals("Failed"))
          && condition.path("status").asText().equals("True")) {
        return true;
      }
    }
    return false;
  }

  /** DaemonSet status semantics: desiredNumberScheduled (1 when absent) equals numberReady (0) and is positive. */
  private static boolean allReady(JsonNode status) {
    JsonNode desired =
        status.has("desiredNumberScheduled")
            ? status.get("desiredNumberScheduled")
            : com.fasterxml.jackson.databind.node.IntNode.valueOf(1);
    JsonNode ready =
        status.has("numberReady")
            ? status.get("numberReady")
            : com.fasterxml.jackson.databind.node.IntNode.valueOf(0);
    return desired.isNumber()
        && ready.isNumber()
        && desired.doubleValue() == ready.doubleValue()
        && desired.doubleValue() > 0;
  }
}

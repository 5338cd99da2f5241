package dev.metahooks.properties;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.properties.Replies.Reply;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.RequestMaps;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;
import org.junit.jupiter.api.Test;

/**
 * Properties every controller keeps, over requests generated from its golden fixtures by edits that keep them
 * valid ({@link ValidEdit}): the same request gets the same bytes; the order of object-map entries does not
 * change the answer; a valid request gets a 200 whose desired objects all have apiVersion, kind and name; and
 * the children of the controllers that choose their selector themselves (found in the catalog: no generateSelector,
 * a {@code spec.selector}; bluegreen and catset today) carry the labels it needs.
 */
class HookPropertiesTest {
  @Provide
  Arbitrary<GeneratedRequest> requests() {
    return GeneratedRequest.ofEveryController();
  }

  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  @Property(tries = 400)
  void theSameRequestGetsByteIdenticalAnswers(@ForAll("requests") GeneratedRequest generated)
      throws IOException {
    byte[] body = JsonTrees.MAPPER.writeValueAsBytes(generated.request());
    Reply first = Replies.call(generated.controller(), generated.hook(), body);
    Reply second = Replies.call(generated.controller(), generated.hook(), body);
    Reply rebuilt = Replies.call(generated);

    assertThat(second.status()).isEqualTo(first.status());
    assertThat(second.bytes()).as("second answer").isEqualTo(first.bytes());
    assertThat(rebuilt.bytes()).as("answer to the request built again").isEqualTo(first.bytes());
    Statistics.label("controller").collect(generated.controller());
    Statistics.label("status").collect(first.status());
  }

  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  @Property(tries = 400)
  void objectMapOrderDoesNotChangeTheAnswer(
      @ForAll("requests") GeneratedRequest generated, @ForAll long order) {
    ObjectNode request = generated.request();
    ObjectNode reordered = request.deepCopy();
    RequestMaps.shuffle(reordered, new Random(order));
    if (generated.controller().equals("catset") && sharedOrdinal(request)) {
      // Upstream catset keys Pods by ordinal and the later of web-1 and web-01 wins: order is part
      // of its answer.
      Statistics.label("skipped").collect("catset ordinal twice");
      return;
    }

    Reply original = Replies.call(generated.controller(), generated.hook(), request);
    Reply shuffled = Replies.call(generated.controller(), generated.hook(), reordered);

    assertThat(shuffled.status()).isEqualTo(original.status());
    assertThat(canonical(generated.controller(), shuffled))
        .isEqualTo(canonical(generated.controller(), original));
    Statistics.label("status").collect(original.status());
  }

  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  @Property(tries = 400)
  void validRequestsGetA200WithNamedObjects(@ForAll("requests") GeneratedRequest generated) {
    Reply reply = Replies.call(generated);
    assertThat(reply.status()).as("a valid request is answered: %s", reply).isEqualTo(200);
    for (JsonNode object : reply.objects()) {
      assertThat(object.isObject()).as("%s", object).isTrue();
      for (String pointer : List.of("/apiVersion", "/kind", "/metadata/name")) {
        JsonNode value = object.at(pointer);
        assertThat(value.isTextual() && !value.asText().isEmpty())
            .as("%s of %s", pointer, object)
            .isTrue();
      }
    }
  }

  @Provide
  Arbitrary<GeneratedRequest> ownSelector() {
    return GeneratedRequest.of(choosingTheirOwnSelector());
  }

  /**
   * The catalog's controllers that choose their selector themselves: their manifest does not ask Metacontroller to
   * generate one, and their parents carry {@code spec.selector}.
   */
  static List<String> choosingTheirOwnSelector() {
    return GeneratedRequest.catalogWhere(request -> request.at("/parent/spec/selector").isObject())
        .stream()
        .filter(
            name ->
                Manifests.read(Manifests.METACONTROLLER.resolve(name + ".yaml")).stream()
                    .noneMatch(manifest -> manifest.at("/spec/generateSelector").asBoolean(false)))
        .toList();
  }

  @Test
  void theSelectorPropertyFindsItsControllersInTheCatalog() {
    assertThat(choosingTheirOwnSelector()).containsExactly("bluegreen", "catset");
  }

  /**
   * Metacontroller refuses a desired child whose labels do not match the parent's selector. bluegreen and
   * catset copy their children's labels from templates in the spec, so when every template carries the
   * selector's labels, so must every child; a ReplicaSet's own pod template must match its own selector too.
   */
  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  @Property(tries = 300)
  void childrenCarryTheLabelsOfTheParentSelector(
      @ForAll("ownSelector") GeneratedRequest generated) {
    ObjectNode request = generated.request();
    JsonNode matchLabels = request.at("/parent/spec/selector/matchLabels");
    boolean applies = matchLabels.isObject() && templatesCarry(request, matchLabels);
    Statistics.label("templates carry the selector labels").collect(applies);
    Statistics.label("templates carry the selector labels")
        .coverage(coverage -> coverage.check(true).percentage(p -> p > 30));
    if (!applies) {
      return;
    }
    Reply reply = Replies.call(generated.controller(), generated.hook(), request);
    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    for (JsonNode child : reply.objects()) {
      assertThat(contains(child.at("/metadata/labels"), matchLabels))
          .as("labels of %s", child)
          .isTrue();
      if (child.path("kind").asText().equals("ReplicaSet")) {
        assertThat(
                contains(
                    child.at("/spec/template/metadata/labels"),
                    child.at("/spec/selector/matchLabels")))
            .as("pod template labels of %s", child)
            .isTrue();
      }
    }
  }

  /** Whether every template a child's labels may come from carries {@code matchLabels}. */
  private static boolean templatesCarry(ObjectNode request, JsonNode matchLabels) {
    List<JsonNode> labelSets = new ArrayList<>();
    labelSets.add(request.at("/parent/spec/template/metadata/labels"));
    if (request.at("/parent/spec/service").isObject()) {
      labelSets.add(request.at("/parent/spec/service/metadata/labels"));
    }
    request
        .at("/parent/spec/volumeClaimTemplates")
        .forEach(t -> labelSets.add(t.at("/metadata/labels")));
    // bluegreen rebuilds a ReplicaSet from the pod template recorded in its annotation.
    request
        .at("/children")
        .path("ReplicaSet.apps/v1")
        .forEach(
            rs -> {
              JsonNode recorded =
                  rs.at("/metadata/annotations")
                      .path("bluegreendeployments.ctl.enisoc.com/pod-template-json");
              try {
                labelSets.add(JsonTrees.MAPPER.readTree(recorded.asText()).at("/metadata/labels"));
              } catch (IOException e) {
                labelSets.add(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
              }
            });
    return labelSets.stream().allMatch(labels -> contains(labels, matchLabels));
  }

  static boolean contains(JsonNode labels, JsonNode wanted) {
    if (!labels.isObject() || !wanted.isObject()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> label : wanted.properties()) {
      if (!label.getValue().equals(labels.get(label.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The answer with catset's retained claims sorted: upstream lists the claims kept above {@code replicas}
   * in the order the request listed them (the order Pods roll in is that of the Pods, which is kept).
   */
  private static JsonNode canonical(String controller, Reply reply) {
    JsonNode answer = reply.json();
    if (!controller.equals("catset") || !reply.ok()) {
      return answer;
    }
    List<JsonNode> children = new ArrayList<>();
    answer.path("children").forEach(children::add);
    List<JsonNode> claims =
        new ArrayList<>(
            children.stream()
                .filter(c -> c.path("kind").asText().equals("PersistentVolumeClaim"))
                .toList());
    claims.sort(Comparator.comparing(c -> c.at("/metadata/name").asText()));
    ArrayNode sorted = ((ObjectNode) answer).putArray("children");
    children.stream()
        .filter(c -> !c.path("kind").asText().equals("PersistentVolumeClaim"))
        .forEach(sorted::add);
    claims.forEach(sorted::add);
    return answer;
  }

  private static final Pattern ORDINAL = Pattern.compile(".*-0*([0-9]+)");

  /** Whether two observed Pods share an ordinal (web-1 and web-01). */
  private static boolean sharedOrdinal(ObjectNode request) {
    Set<String> seen = new HashSet<>();
    for (JsonNode pod : request.at("/children").path("Pod.v1")) {
      Matcher match = ORDINAL.matcher(pod.at("/metadata/name").asText());
      if (match.matches() && !seen.add(match.group(1))) {
        return true;
      }
    }
    return false;
  }
}

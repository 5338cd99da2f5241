package dev.metahooks.properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.RequestMaps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One change to a real hook request that keeps it a request Metacontroller could send: another observed
 * world (objects gone, added, in other states), another spec within its range, another hook version, another
 * key order. Each edit is a kind and a seed, so a generated request is repeatable and shrinks by dropping edits.
 */
record ValidEdit(Kind kind, long seed) {
  enum Kind {
    /** Object-map groups and entries in another order. */
    SHUFFLE_MAPS,
    /** One observed object gone. */
    DROP_OBSERVED,
    /** One more observed object, a copy of another under a new name (a new ordinal where it has one). */
    CLONE_OBSERVED,
    /** A phase, a condition or a count in some status changed. */
    FLIP_STATUS,
    /** A count of the spec (replicas, completions, parallelism, instances) set within its range. */
    SCALE,
    /** The same world sent with the other hook version (v1 leaves out objects of other namespaces). */
    SWITCH_VERSION,
    /** A target namespace added to or removed from a list of them. */
    EDIT_TARGETS,
    /** A label added to the parent's selector and to every template the children are made from. */
    ADD_SELECTOR_LABEL
  }

  /** Spec counts each controller reads, with the range in which they are valid and cheap. */
  private record Count(String pointer, int min, int max) {}

  private static final Map<String, List<Count>> COUNTS =
      Map.of(
          "bluegreen", List.of(new Count("/parent/spec/replicas", 0, 5)),
          "catset", List.of(new Count("/parent/spec/replicas", 0, 6)),
          "indexedjob",
              List.of(
                  new Count("/parent/spec/completions", 0, 8),
                  new Count("/parent/spec/parallelism", 0, 4)),
          "service-per-pod", List.of(new Count("/object/spec/replicas", 0, 6)),
          "postgrescluster", List.of(new Count("/parent/spec/instances", 0, 5)));

  private static final List<String> PHASES = List.of("Pending", "Running", "Succeeded", "Failed");
  private static final List<String> NAMESPACES =
      List.of("default", "one", "two", "three", "team-a", "kube-system");
  private static final Pattern ORDINAL = Pattern.compile("(.*-)([0-9]+)");

  void apply(ObjectNode request, String controller, String hook) {
    Random random = new Random(seed);
    switch (kind) {
      case SHUFFLE_MAPS -> RequestMaps.shuffle(request, random);
      case DROP_OBSERVED ->
          pick(RequestMaps.entries(request, hook), random)
              .ifPresent(e -> ((ObjectNode) request.get(e.field()).get(e.group())).remove(e.key()));
      case CLONE_OBSERVED ->
          pick(RequestMaps.entries(request, hook), random)
              .ifPresent(e -> cloneEntry(request, hook, e, random));
      case FLIP_STATUS -> flipStatus(request, hook, random);
      case SCALE -> scale(request, controller, random);
      case SWITCH_VERSION ->
          RequestMaps.switchVersion(
              request, hook, RequestMaps.version(request, hook).equals("v1") ? "v2" : "v1");
      case EDIT_TARGETS -> editTargets(request, random);
      case ADD_SELECTOR_LABEL -> addSelectorLabel(request, random);
      default -> throw new IllegalStateException(kind.name());
    }
  }

  private static <T> Optional<T> pick(List<T> items, Random random) {
    return items.isEmpty()
        ? Optional.empty()
        : Optional.of(items.get(random.nextInt(items.size())));
  }

  private static void cloneEntry(
      ObjectNode request, String hook, RequestMaps.Entry entry, Random random) {
    Matcher ordinal = ORDINAL.matcher(entry.name());
    String name =
        ordinal.matches()
            ? ordinal.group(1) + random.nextInt(8)
            : entry.name() + "-" + random.nextInt(8);
    String key =
        RequestMaps.key(
            RequestMaps.version(request, hook),
            RequestMaps.parentNamespace(request),
            entry.namespace(),
            name);
    ObjectNode group = RequestMaps.group(request, entry.field(), entry.group());
    if (group.has(key)) {
      return;
    }
    ObjectNode copy = entry.object().deepCopy();
    ObjectNode metadata = (ObjectNode) copy.get("metadata");
    metadata.put("name", name);
    if (metadata.has("uid")) {
      metadata.put("uid", metadata.path("uid").asText() + "-" + name);
    }
    group.set(key, copy);
  }

  /** A phase, a True/False condition or a small count of some observed object's (or the parent's) status. */
  private static void flipStatus(ObjectNode request, String hook, Random random) {
    List<ObjectNode> statuses = new ArrayList<>();
    for (RequestMaps.Entry entry : RequestMaps.entries(request, hook)) {
      if (entry.object().get("status") instanceof ObjectNode status) {
        statuses.add(status);
      }
    }
    if (request.path("parent").get("status") instanceof ObjectNode status) {
      statuses.add(status);
    }
    pick(statuses, random)
        .ifPresent(
            status -> {
              List<Runnable> changes = new ArrayList<>();
              if (status.path("phase").isTextual()) {
                changes.add(() -> status.put("phase", PHASES.get(random.nextInt(PHASES.size()))));
              }
              for (JsonNode condition : status.path("conditions")) {
                String value = condition.path("status").asText();
                if (condition.isObject() && (value.equals("True") || value.equals("False"))) {
                  changes.add(
                      () ->
                          ((ObjectNode) condition)
                              .put("status", value.equals("True") ? "False" : "True"));
                }
              }
              status
                  .properties()
                  .forEach(
                      field -> {
                        if (field.getValue().isIntegralNumber()) {
                          changes.add(() -> status.put(field.getKey(), random.nextInt(6)));
                        }
                      });
              pick(changes, random).ifPresent(Runnable::run);
            });
  }

  private static void scale(ObjectNode request, String controller, Random random) {
    pick(COUNTS.getOrDefault(controller, List.of()), random)
        .ifPresent(
            count -> {
              int slash = count.pointer().lastIndexOf('/');
              if (request.at(count.pointer().substring(0, slash)) instanceof ObjectNode spec) {
                spec.put(
                    count.pointer().substring(slash + 1),
                    count.min() + random.nextInt(count.max() - count.min() + 1));
              }
            });
  }

  private static void editTargets(ObjectNode request, Random random) {
    if (request.at("/parent/spec/targetNamespaces") instanceof ArrayNode targets) {
      if (targets.isEmpty() || random.nextBoolean()) {
        targets.insert(
            random.nextInt(targets.size() + 1), NAMESPACES.get(random.nextInt(NAMESPACES.size())));
      } else {
        targets.remove(random.nextInt(targets.size()));
      }
    }
  }

  private static void addSelectorLabel(ObjectNode request, Random random) {
    if (!(request.at("/parent/spec/selector/matchLabels") instanceof ObjectNode matchLabels)) {
      return;
    }
    String key = "tier-" + random.nextInt(4);
    String value = "v" + random.nextInt(3);
    matchLabels.put(key, value);
    List<JsonNode> templates =
        new ArrayList<>(
            List.of(request.at("/parent/spec/template"), request.at("/parent/spec/service")));
    request.at("/parent/spec/volumeClaimTemplates").forEach(templates::add);
    for (JsonNode template : templates) {
      if (template.get("metadata") instanceof ObjectNode metadata) {
        metadata.withObjectProperty("labels").put(key, value);
      }
    }
  }
}

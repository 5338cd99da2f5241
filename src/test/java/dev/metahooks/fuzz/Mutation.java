package dev.metahooks.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.RequestMaps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * One structural change to a request, valid or not: a field deleted, a value of another JSON type, entries
 * duplicated or renamed, another hook version, object-map keys of the other version. Each is a kind and a
 * seed, so an input is repeatable and shrinks by dropping mutations. Byte-level changes (truncation, stray
 * bytes) are applied to the serialized request, after the tree mutations.
 */
record Mutation(Kind kind, long seed) {
  enum Kind {
    DELETE_FIELD,
    REPLACE_VALUE,
    HUGE_COUNT,
    DUPLICATE_ENTRY,
    RENAME_KEY,
    HOOK_VERSION,
    SWAP_KEY_FORM,
    FINALIZING,
    TRUNCATE_BYTES,
    NOISE_BYTES,
    DUPLICATE_KEY_BYTES;

    boolean onBytes() {
      return this == TRUNCATE_BYTES || this == NOISE_BYTES || this == DUPLICATE_KEY_BYTES;
    }
  }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> KEYS =
      List.of(
          "metadata",
          "spec",
          "status",
          "name",
          "namespace",
          "apiVersion",
          "kind",
          "children",
          "attachments",
          "related",
          "parent",
          "object",
          "controller",
          "labels",
          "annotations",
          "replicas",
          "template",
          "selector",
          "matchLabels",
          "hooks",
          "version",
          "finalizing",
          "uid");
  private static final List<String> VERSIONS = List.of("v1", "v2", "v3", "", "V2", " v2");

  /** A place in the tree: a container and the field name or index of one of its values. */
  private record Slot(JsonNode container, String field, int index) {
    JsonNode value() {
      return container.isObject() ? container.get(field) : container.get(index);
    }

    void set(JsonNode value) {
      if (container instanceof ObjectNode object) {
        object.set(field, value);
      } else {
        ((ArrayNode) container).set(index, value);
      }
    }

    void remove() {
      if (container instanceof ObjectNode object) {
        object.remove(field);
      } else {
        ((ArrayNode) container).remove(index);
      }
    }
  }

  void apply(ObjectNode request, String hook) {
    Random random = new Random(seed);
    switch (kind) {
      case DELETE_FIELD -> slot(request, random).ifPresent(Slot::remove);
      case REPLACE_VALUE -> slot(request, random).ifPresent(slot -> slot.set(anyValue(random)));
      case HUGE_COUNT -> numberSlot(request, random).ifPresent(slot -> slot.set(hugeCount(random)));
      case DUPLICATE_ENTRY -> slot(request, random).ifPresent(slot -> duplicate(slot, random));
      case RENAME_KEY ->
          slot(request, random)
              .filter(slot -> slot.container().isObject())
              .ifPresent(slot -> rename(slot, random));
      case HOOK_VERSION -> {
        String hookName = List.of("sync", "finalize", "customize").get(random.nextInt(3));
        JsonNode version =
            random.nextInt(4) == 0
                ? anyValue(random)
                : NODES.textNode(VERSIONS.get(random.nextInt(VERSIONS.size())));
        object(object(object(object(request, "controller"), "spec"), "hooks"), hookName)
            .set("version", version);
      }
      case SWAP_KEY_FORM -> swapKeyForm(request, hook, random);
      case FINALIZING ->
          request.set(
              "finalizing",
              random.nextBoolean() ? NODES.booleanNode(random.nextBoolean()) : anyValue(random));
      case TRUNCATE_BYTES, NOISE_BYTES, DUPLICATE_KEY_BYTES -> {}
      default -> throw new IllegalStateException(kind.name());
    }
  }

  byte[] apply(byte[] body) {
    Random random = new Random(seed);
    if (kind == Kind.TRUNCATE_BYTES) {
      return java.util.Arrays.copyOf(body, body.length == 0 ? 0 : random.nextInt(body.length));
    }
    if (kind == Kind.NOISE_BYTES) {
      byte[] noise = {
        '{', '}', '[', ']', '"', ',', ':', '\\', 0, (byte) 0xFF, (byte) 0xC3, '\n', 'e', '-'
      };
      byte[] out = body.clone();
      for (int i = 0, n = 1 + random.nextInt(3); i < n && out.length > 0; i++) {
        out[random.nextInt(out.length)] = noise[random.nextInt(noise.length)];
      }
      return out;
    }
    if (kind == Kind.DUPLICATE_KEY_BYTES) {
      // A well-known key written once more at the start of some object: a duplicate where the
      // object has it.
      List<Integer> objects = new ArrayList<>();
      for (int i = 0; i + 1 < body.length; i++) {
        if (body[i] == '{' && body[i + 1] == '"') {
          objects.add(i + 1);
        }
      }
      if (objects.isEmpty()) {
        return body;
      }
      int at = objects.get(random.nextInt(objects.size()));
      byte[] field =
          ("\"" + KEYS.get(random.nextInt(KEYS.size())) + "\":null,")
              .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      byte[] out = new byte[body.length + field.length];
      System.arraycopy(body, 0, out, 0, at);
      System.arraycopy(field, 0, out, at, field.length);
      System.arraycopy(body, at, out, at + field.length, body.length - at);
      return out;
    }
    return body;
  }

  /**
   * A random place, mostly where the hooks look: the parent or target (half the time), the object maps, the
   * controller, or anywhere.
   */
  private static Optional<Slot> slot(ObjectNode request, Random random) {
    JsonNode root;
    int where = random.nextInt(10);
    if (where < 5) {
      root = request.has("parent") ? request.get("parent") : request.get("object");
    } else if (where < 8) {
      root = request.get(RequestMaps.FIELDS.get(random.nextInt(RequestMaps.FIELDS.size())));
    } else if (where < 9) {
      root = request.get("controller");
    } else {
      root = request;
    }
    if (root == null || !root.isContainerNode() || root.isEmpty()) {
      root = request;
    }
    List<Slot> slots = new ArrayList<>();
    collect(root, slots);
    return slots.isEmpty()
        ? Optional.empty()
        : Optional.of(slots.get(random.nextInt(slots.size())));
  }

  /** A random place that holds a number, in the parent or target (where counts are), else anywhere. */
  private static Optional<Slot> numberSlot(ObjectNode request, Random random) {
    List<Slot> slots = new ArrayList<>();
    collect(request.has("parent") ? request.get("parent") : request.path("object"), slots);
    if (slots.stream().noneMatch(slot -> slot.value().isNumber())) {
      collect(request, slots);
    }
    List<Slot> numbers = slots.stream().filter(slot -> slot.value().isNumber()).toList();
    return numbers.isEmpty()
        ? Optional.empty()
        : Optional.of(numbers.get(random.nextInt(numbers.size())));
  }

  /** A count far beyond what any hook should build objects for, but still a valid JSON number. */
  private static JsonNode hugeCount(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> NODES.numberNode(100_000 + random.nextInt(2_000_000));
      case 1 -> NODES.numberNode(Integer.MAX_VALUE);
      case 2 -> NODES.numberNode(1L << 53);
      case 3 -> NODES.numberNode(Long.MAX_VALUE);
      case 4 -> NODES.numberNode(1e18);
      default -> NODES.numberNode(random.nextInt(100_000_000));
    };
  }

  private static void collect(JsonNode container, List<Slot> slots) {
    if (container instanceof ObjectNode object) {
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        slots.add(new Slot(object, field.getKey(), -1));
        collect(field.getValue(), slots);
      }
    } else if (container instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        slots.add(new Slot(array, null, i));
        collect(array.get(i), slots);
      }
    }
  }

  /** A value of any JSON type, with the extremes parsers and hooks trip on. */
  static JsonNode anyValue(Random random) {
    return switch (random.nextInt(16)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.numberNode(random.nextInt(7) - 2);
      case 2 -> NODES.numberNode(random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE);
      case 3 ->
          NODES.numberNode(
              new BigInteger("9".repeat(1 + random.nextInt(120)))
                  .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)));
      case 4 ->
          NODES.numberNode(
              List.of(0.5, -0.0, 1e308, -1e-308, 2.0, 3.0000001).get(random.nextInt(6)));
      case 5 -> NODES.numberNode(new BigDecimal("1e" + (random.nextInt(700) - 350)));
      case 6 -> NODES.booleanNode(random.nextBoolean());
      case 7 ->
          NODES.textNode(
              List.of(
                      "",
                      " ",
                      "3",
                      "-1",
                      "true",
                      "null",
                      "v2",
                      "a/b",
                      "é\u0000\u2028",
                      "default",
                      "Running",
                      "True",
                      "1Gi",
                      "{}")
                  .get(random.nextInt(14)));
      case 8 -> NODES.textNode("x".repeat(1 + random.nextInt(200_000)));
      case 9 -> NODES.arrayNode();
      case 10 -> NODES.arrayNode().add(anyScalar(random)).add(NODES.objectNode());
      case 11 -> NODES.objectNode();
      case 12 -> NODES.objectNode().set(KEYS.get(random.nextInt(KEYS.size())), anyScalar(random));
      case 13 -> deep(random.nextInt(190), random);
      case 14 -> NODES.textNode("a".repeat(1 + random.nextInt(300)) + "-" + random.nextInt(1000));
      default -> NODES.numberNode(random.nextInt(100_000_001));
    };
  }

  private static JsonNode anyScalar(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.numberNode(random.nextInt(10));
      case 2 -> NODES.booleanNode(true);
      default -> NODES.textNode("s" + random.nextInt(10));
    };
  }

  /** Arrays and objects nested {@code depth} deep (the parser allows 200 levels in all). */
  private static JsonNode deep(int depth, Random random) {
    JsonNode node = NODES.textNode("bottom");
    for (int i = 0; i < depth; i++) {
      node =
          random.nextBoolean() ? NODES.arrayNode().add(node) : NODES.objectNode().set("spec", node);
    }
    return node;
  }

  private static void duplicate(Slot slot, Random random) {
    JsonNode value = slot.value();
    if (slot.container() instanceof ArrayNode array) {
      array.insert(slot.index(), value.deepCopy());
    } else {
      ObjectNode object = (ObjectNode) slot.container();
      String key =
          random.nextBoolean()
              ? slot.field() + "-" + random.nextInt(3)
              : slot.field().toUpperCase();
      object.set(key, value.deepCopy());
    }
  }

  private static void rename(Slot slot, Random random) {
    ObjectNode object = (ObjectNode) slot.container();
    JsonNode value = object.remove(slot.field());
    String key =
        switch (random.nextInt(4)) {
          case 0 -> KEYS.get(random.nextInt(KEYS.size()));
          case 1 -> slot.field().toUpperCase();
          case 2 -> slot.field() + "/" + slot.field();
          default -> "";
        };
    object.set(key, value);
  }

  /** The object at {@code field}, put there in place of whatever else was. */
  private static ObjectNode object(ObjectNode container, String field) {
    if (container.get(field) instanceof ObjectNode object) {
      return object;
    }
    return container.putObject(field);
  }

  /** One object-map key written in the other version's form: {@code name} and {@code namespace/name}. */
  private static void swapKeyForm(ObjectNode request, String hook, Random random) {
    List<RequestMaps.Entry> entries = RequestMaps.entries(request, hook);
    if (entries.isEmpty()) {
      return;
    }
    RequestMaps.Entry entry = entries.get(random.nextInt(entries.size()));
    ObjectNode group = (ObjectNode) request.get(entry.field()).get(entry.group());
    JsonNode object = group.remove(entry.key());
    String namespace = entry.namespace().isEmpty() ? "default" : entry.namespace();
    group.set(entry.key().contains("/") ? entry.name() : namespace + "/" + entry.name(), object);
  }
}

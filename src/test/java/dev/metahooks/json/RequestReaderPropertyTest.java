package dev.metahooks.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The request parse on random and hostile requests (duplicate names, broken, cut short, trailing tokens, numbers of
 * every size) is Jackson's {@code readTree} followed by the projection: the same tree, refused where Jackson refuses;
 * a name written twice is refused wherever the projection keeps it and passed over where it does not.
 */
class RequestReaderPropertyTest {
  private static final Projection PODS =
      Projection.NONE.reading(
          "Pod.v1", "status.phase", "status.conditions.type", "metadata.annotations['a.b']");

  private static final List<String> NAMES =
      List.of(
          "apiVersion", "kind", "metadata", "name", "spec", "status", "phase", "type", "a.b", "x");

  /** What a duplicate becomes in the reference tree: whoever keeps it must refuse the request. */
  private static final TextNode AMBIGUOUS = TextNode.valueOf("\u2620 two values \u2620");

  private static final ObjectReader LENIENT =
      JsonTrees.MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @Property(tries = 2000)
  void theTreeIsJacksonsWithTheProjectionAndDuplicatesTheHookKeepsAreRefused(
      @ForAll long seed, @ForAll boolean projected) {
    String request = request(new Random(seed));
    byte[] body = request.getBytes(StandardCharsets.UTF_8);
    Projection projection = projected ? PODS : Projection.NONE;
    JsonNode expected;
    try {
      expected = projection(JsonTrees.MAPPER.readTree(body), projection);
    } catch (IOException refused) {
      if (!String.valueOf(refused.getMessage()).startsWith("Duplicate field")) {
        assertThatThrownBy(() -> JsonTrees.parse(body, projection))
            .as(request)
            .isInstanceOf(IOException.class);
        return;
      }
      try {
        expected = projection(marked(body), projection);
      } catch (IOException malformed) {
        assertThatThrownBy(() -> JsonTrees.parse(body, projection))
            .as(request)
            .isInstanceOf(IOException.class);
        return;
      }
    }
    if (expected.toString().contains(AMBIGUOUS.textValue())) {
      assertThatThrownBy(() -> JsonTrees.parse(body, projection))
          .as(request)
          .hasMessageStartingWith("Duplicate field '");
      return;
    }
    try {
      assertThat(JsonTrees.parse(body, projection)).as(request).isEqualTo(expected);
    } catch (IOException e) {
      throw new AssertionError(request + " refused: " + e.getMessage(), e);
    }
  }

  // The requests: shaped like hook requests so that the projection applies, with names drawn from a
  // small set
  // so that one object in ten may hold a name twice; then broken in one of four ways, or not.

  private static final String[] SCALARS = {
    "1",
    "-7",
    "12345678901",
    "123456789012345678901234567890",
    "1.5",
    "-0.0",
    "1e3",
    "true",
    "false",
    "null",
    "\"Running\"",
    "\"\"",
    "\"\\u00e9\\n\"",
    "\"web-0\""
  };

  /** A random request, most of them well-formed. */
  static String request(Random random) {
    String request =
        object(
            random,
            Map.of(
                "parent",
                r -> value(r, 2),
                "children",
                RequestReaderPropertyTest::objectMap,
                "related",
                RequestReaderPropertyTest::objectMap,
                "x",
                r -> value(r, 1)));
    return switch (random.nextInt(10)) {
      case 0 -> request + " {}"; // a trailing token
      case 1 -> request.substring(0, random.nextInt(request.length())); // cut short
      case 2 -> request.replaceFirst(":", ": [}"); // broken
      case 3 -> value(random, 2); // not an object
      default -> request;
    };
  }

  private static String scalar(Random random) {
    return SCALARS[random.nextInt(SCALARS.length)];
  }

  private static String value(Random random, int depth) {
    int kind = depth == 0 ? 0 : random.nextInt(7);
    if (kind < 4) {
      return scalar(random);
    }
    if (kind < 6) {
      return object(random, NAMES, r -> value(r, depth - 1));
    }
    return list(random, r -> value(r, depth - 1));
  }

  private static String list(Random random, Function<Random, String> elements) {
    StringJoiner list = new StringJoiner(", ", "[", "]");
    for (int i = random.nextInt(4); i > 0; i--) {
      list.add(elements.apply(random));
    }
    return list.toString();
  }

  private static String object(Random random, List<String> names, Function<Random, String> values) {
    Map<String, Function<Random, String>> fields = new LinkedHashMap<>();
    names.forEach(name -> fields.put(name, values));
    return object(random, fields);
  }

  /** An object of up to five fields, each name with its own values; a name twice in one object of ten. */
  private static String object(Random random, Map<String, Function<Random, String>> values) {
    List<String> names = new ArrayList<>(new TreeMap<>(values).keySet());
    Collections.shuffle(names, random);
    List<String> chosen =
        new ArrayList<>(names.subList(0, random.nextInt(Math.min(5, names.size()) + 1)));
    if (!chosen.isEmpty() && random.nextInt(10) == 0) {
      chosen.add(random.nextInt(chosen.size() + 1), chosen.get(random.nextInt(chosen.size())));
    }
    StringJoiner object = new StringJoiner(", ", "{", "}");
    chosen.forEach(name -> object.add("\"" + name + "\": " + values.get(name).apply(random)));
    return object.toString();
  }

  private static String objectMap(Random random) {
    Function<Random, String> annotations =
        r -> object(r, List.of("a.b", "a", "b"), r2 -> value(r2, 1));
    Function<Random, String> conditions =
        r -> list(r, r2 -> object(r2, List.of("type", "status"), r3 -> value(r3, 1)));
    Function<Random, String> pod =
        r ->
            object(
                r,
                Map.of(
                    "apiVersion", RequestReaderPropertyTest::scalar,
                    "metadata",
                        r2 ->
                            object(
                                r2,
                                Map.of(
                                    "name", RequestReaderPropertyTest::scalar,
                                    "namespace", RequestReaderPropertyTest::scalar,
                                    "uid", RequestReaderPropertyTest::scalar,
                                    "annotations", annotations)),
                    "spec", r2 -> value(r2, 2),
                    "status",
                        r2 ->
                            object(
                                r2,
                                Map.of(
                                    "phase", r3 -> value(r3, 1),
                                    "hostIP", r3 -> value(r3, 1),
                                    "conditions", conditions))));
    Function<Random, String> group =
        r -> r.nextInt(6) == 0 ? value(r, 1) : object(r, List.of("web-0", "web-1", "web-2"), pod);
    return "{\"Pod.v1\": " + group.apply(random) + ", \"Service.v1\": " + group.apply(random) + "}";
  }

  // The reference: Jackson's tree, then the projection applied to it.

  /** What {@code projection} keeps of a request's tree, by its definition in {@link Projection}. */
  private static JsonNode projection(JsonNode request, Projection projection) {
    if (request == null || !request.isObject() || projection.isEmpty()) {
      return request == null ? JsonTrees.MAPPER.missingNode() : request;
    }
    ObjectNode copy = request.deepCopy();
    for (String map : List.of("children", "attachments", "related")) {
      if (copy.get(map) instanceof ObjectNode groups) {
        groups
            .properties()
            .forEach(
                group -> {
                  Projection.Level level = projection.of(group.getKey());
                  if (level != null && group.getValue() instanceof ObjectNode objects) {
                    objects.properties().forEach(o -> o.setValue(kept(o.getValue(), level)));
                  }
                });
      }
    }
    return copy;
  }

  private static JsonNode kept(JsonNode value, Projection.Level level) {
    if (level.whole()) {
      return value;
    }
    if (value instanceof ObjectNode object) {
      ObjectNode kept = JsonTrees.MAPPER.createObjectNode();
      object
          .properties()
          .forEach(
              field -> {
                Projection.Level below = level.field(field.getKey());
                if (below != null) {
                  kept.set(field.getKey(), kept(field.getValue(), below));
                }
              });
      return kept;
    }
    if (value instanceof ArrayNode array) {
      ArrayNode kept = JsonTrees.MAPPER.createArrayNode();
      array.forEach(element -> kept.add(kept(element, level)));
      return kept;
    }
    return value;
  }

  /** Jackson's tree of a body with duplicate names, each such field's value {@link #AMBIGUOUS}. */
  private static JsonNode marked(byte[] body) throws IOException {
    try (JsonParser parser = JsonTrees.MAPPER.createParser(body)) {
      JsonNode tree = marked(parser, parser.nextToken());
      if (parser.nextToken() != null) {
        throw new IOException("trailing token");
      }
      return tree;
    }
  }

  private static JsonNode marked(JsonParser parser, JsonToken token) throws IOException {
    if (token == null) {
      throw new IOException("cut short");
    }
    if (token == JsonToken.START_OBJECT) {
      ObjectNode object = JsonTrees.MAPPER.createObjectNode();
      for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
        JsonNode value = marked(parser, parser.nextToken());
        object.set(name, object.has(name) ? AMBIGUOUS : value);
      }
      return object;
    }
    if (token == JsonToken.START_ARRAY) {
      ArrayNode array = JsonTrees.MAPPER.createArrayNode();
      for (JsonToken next = parser.nextToken();
          next != JsonToken.END_ARRAY;
          next = parser.nextToken()) {
        array.add(marked(parser, next));
      }
      return array;
    }
    return LENIENT.readTree(parser); // a scalar as Jackson makes it
  }
}

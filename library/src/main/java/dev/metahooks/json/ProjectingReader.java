package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Set;

/**
 * Builds the tree of a hook request as {@code readTree} would, except that in the object maps ({@code children},
 * {@code attachments}, {@code related}) the objects of a type a {@link Projection} names keep only the fields it
 * names: the rest is skipped by the tokenizer instead of being built, so a 39 MB request of 10,000 Pods makes a
 * tree of what the hook reads (a few fields per Pod), not of every Pod.
 */
public final class ProjectingReader {
  private static final Set<String> OBJECT_MAPS = Set.of("children", "attachments", "related");

  private final ObjectMapper mapper;
  private final JsonNodeFactory nodes;
  private final Projection projection;

  public ProjectingReader(ObjectMapper mapper, Projection projection) {
    this.mapper = mapper;
    this.nodes = mapper.getNodeFactory();
    this.projection = projection;
  }

  /** The request's tree from {@code parser}; a missing node for an empty body. */
  public JsonNode read(JsonParser parser) throws IOException {
    JsonToken first = parser.nextToken();
    if (first == null) {
      return mapper.missingNode();
    }
    JsonNode root;
    if (first != JsonToken.START_OBJECT) {
      root = value(parser, Projection.Level.WHOLE);
    } else {
      ObjectNode object = nodes.objectNode();
      for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
        parser.nextToken();
        object.set(
            name,
            OBJECT_MAPS.contains(name) && parser.currentToken() == JsonToken.START_OBJECT
                ? objectMap(parser)
                : value(parser, Projection.Level.WHOLE));
      }
      root = object;
    }
    if (parser.nextToken() != null) {
      throw new JsonParseException(
          parser,
          "Trailing token (of type "
              + parser.currentToken()
              + ") found after value (bound as `com.fasterxml.jackson.databind.JsonNode`)");
    }
    return root;
  }

  /** {@code {"Pod.v1": {"web-0": {...}}}}: each group's objects projected by the group's level. */
  private ObjectNode objectMap(JsonParser parser) throws IOException {
    ObjectNode groups = nodes.objectNode();
    for (String key = parser.nextFieldName(); key != null; key = parser.nextFieldName()) {
      Projection.Level level = projection.of(key);
      JsonToken token = parser.nextToken();
      if (level == null || token != JsonToken.START_OBJECT) {
        groups.set(key, value(parser, Projection.Level.WHOLE));
        continue;
      }
      ObjectNode group = nodes.objectNode();
      for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
        parser.nextToken();
        group.set(name, value(parser, level));
      }
      groups.set(key, group);
    }
    return groups;
  }

  /** The value at the current token with what {@code keep} keeps of it; an array's elements each the same. */
  private JsonNode value(JsonParser parser, Projection.Level keep) throws IOException {
    switch (parser.currentToken()) {
      case START_OBJECT -> {
        ObjectNode object = nodes.objectNode();
        for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
          Projection.Level below = keep.field(name);
          parser.nextToken();
          if (below == null) {
            parser.skipChildren(); // past the tree budget too: nothing of it is built
          } else {
            object.set(name, value(parser, below));
          }
        }
        return object;
      }
      case START_ARRAY -> {
        ArrayNode array = nodes.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(parser, keep));
        }
        return array;
      }
      case VALUE_STRING -> {
        return nodes.textNode(parser.getText());
      }
      case VALUE_NUMBER_INT -> {
        return switch (parser.getNumberType()) {
          case INT -> nodes.numberNode(parser.getIntValue());
          case LONG -> nodes.numberNode(parser.getLongValue());
          default -> nodes.numberNode(parser.getBigIntegerValue());
        };
      }
      case VALUE_NUMBER_FLOAT -> {
        return nodes.numberNode(parser.getDoubleValue());
      }
      case VALUE_TRUE -> {
        return nodes.booleanNode(true);
      }
      case VALUE_FALSE -> {
        return nodes.booleanNode(false);
      }
      case VALUE_NULL -> {
        return nodes.nullNode();
      }
      default -> throw new JsonParseException(parser, "Unexpected token " + parser.currentToken());
    }
  }
}

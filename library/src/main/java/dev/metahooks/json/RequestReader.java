package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Set;

/**
 * Builds the tree of a hook request in one pass over Jackson's tokens: the tree {@code readTree} would build, except
 * that the observed objects of a type a {@link Projection} names keep only the fields it names (the rest is passed
 * by the tokenizer's {@code skipChildren}, at its own speed, and never built); on the way it holds the tree to its
 * budget and refuses a name written twice in an object it builds.
 *
 * <p><b>The budget.</b> A body within the size limit can still be made of nothing but structure (each {@code []} of
 * three bytes becomes a node of about fifty), which would fill the heap long before the parse ended. Every token
 * read to build the tree is counted by the estimate that matches real trees ({@link CompactFields}, shared short
 * strings): 80 bytes per object or array, 24 per name or value. The budget is {@code allowance + bytesPerByte ×
 * body}, and every {@value #CHECK_EVERY} tokens it is also held to the bytes read so far, so that a body of nothing
 * but structure is refused after its first few kilobytes; the call's {@link WorkDeadline} is looked at then too.
 * What is skipped takes no budget: nothing of it is built.
 *
 * <p><b>Duplicate names</b> are refused in every object built, and only there. Two values for one key make a
 * request ambiguous only to a reader that reads them: Metacontroller is Go, and encoding/json keeps the last of
 * two fields (encoding/json {@code decode.go}: {@code objectInterface()} assigns {@code m[key]} per field, and
 * {@code object()} sets a map index per field), while
 * the API server refuses them in strict decoding ({@code sigs.k8s.io/json}'s {@code DisallowDuplicateFields}, used
 * by apimachinery's strict serializer, {@code fieldValidation=Strict}). A request Metacontroller sends is written
 * from Go maps and never holds one; a forged one could make the hook read one value where the sender meant the
 * other, which is why a built object refuses it. A field the hook never reads cannot be read two ways, so a
 * duplicate inside a skipped part changes no answer and is not looked for: that is what lets a skip go at the
 * tokenizer's speed. The check itself costs nothing: a built object looks its names up on insertion anyway (a
 * scan of at most {@value CompactFields#SMALL} names, a hash beyond), and a replaced value is the duplicate.
 * Jackson's own {@code STRICT_DUPLICATE_DETECTION} would check skipped parts too, but its {@code DupDetector}
 * allocates a {@code HashSet} for every object of three names or more (jackson-core {@code
 * json/DupDetector.java}, {@code isDup}, and {@code reset} drops the set for the next object).
 *
 * <p><b>The tokenizer's limits</b> hold in skipped parts too: nesting, names and numbers as the tokenizer checks
 * them while it skips; but it skips a string without reading it, so the string length limit is checked here: a
 * projected object whose bytes are longer than that limit (never a real one: a Pod is a few kilobytes) is read
 * once more, its strings measured, so that a request is refused whatever of it is skipped, as a whole parse
 * refuses it.
 */
final class RequestReader {
  /** The object maps of a request, whose objects a projection applies to. */
  private static final Set<String> OBJECT_MAPS = Set.of("children", "attachments", "related");

  private static final int CONTAINER = 80;
  private static final int VALUE = 24;

  /**
   * How often (in tokens) the estimate is held to the bytes read (finding the offset costs an allocation) and the
   * call's {@link WorkDeadline} is looked at.
   */
  private static final int CHECK_EVERY = 1024;

  private final byte[] body;
  private final JsonParser parser;
  private final JsonNodeFactory nodes;
  private final Projection projection;
  private final long allowance;
  private final double bytesPerByte;
  private final long budget;

  /** Whether a projected object can hold a string over the length limit that a skip would pass unread. */
  private final boolean measureSkipped;

  private long spent;
  private int tokens;

  RequestReader(
      byte[] body,
      JsonParser parser,
      JsonNodeFactory nodes,
      Projection projection,
      long allowance,
      double bytesPerByte) {
    this.body = body;
    this.parser = parser;
    this.nodes = nodes;
    this.projection = projection;
    this.allowance = allowance;
    this.bytesPerByte = bytesPerByte;
    this.budget = allowance + (long) (bytesPerByte * body.length);
    this.measureSkipped = body.length > maxStringLength();
  }

  /** The request's tree; a missing node for an empty body. */
  JsonNode read() throws IOException {
    JsonToken first = next();
    if (first == null) {
      return MissingNode.getInstance();
    }
    JsonNode root =
        first == JsonToken.START_OBJECT && !projection.isEmpty()
            ? request()
            : value(Projection.Level.WHOLE);
    JsonToken trailing = next();
    if (trailing != null) {
      throw new JsonParseException(
          parser,
          "Trailing token (of type "
              + trailing
              + ") found after value (bound as `com.fasterxml.jackson.databind.JsonNode`): not allowed"
              + " as per `DeserializationFeature.FAIL_ON_TRAILING_TOKENS`");
    }
    return root;
  }

  /** The request object: its object maps projected, everything else whole. */
  private ObjectNode request() throws IOException {
    ObjectNode request = nodes.objectNode();
    for (String name = nextName(); name != null; name = nextName()) {
      JsonToken token = next();
      put(
          request,
          name,
          token == JsonToken.START_OBJECT && OBJECT_MAPS.contains(name)
              ? objectMap()
              : value(Projection.Level.WHOLE));
    }
    return request;
  }

  /** {@code {"Pod.v1": {"web-0": {...}}}}: each group's objects projected by the group's level. */
  private ObjectNode objectMap() throws IOException {
    ObjectNode groups = nodes.objectNode();
    for (String key = nextName(); key != null; key = nextName()) {
      Projection.Level level = projection.of(key);
      JsonToken token = next();
      if (level == null || token != JsonToken.START_OBJECT) {
        put(groups, key, value(Projection.Level.WHOLE));
        continue;
      }
      ObjectNode group = nodes.objectNode();
      for (String name = nextName(); name != null; name = nextName()) {
        next();
        put(group, name, projected(level));
      }
      put(groups, key, group);
    }
    return groups;
  }

  /** One observed object of a projected type, with its skipped strings measured where they could be too long. */
  private JsonNode projected(Projection.Level level) throws IOException {
    if (!measureSkipped || !parser.currentToken().isStructStart()) {
      return value(level);
    }
    long start = parser.currentTokenLocation().getByteOffset();
    JsonNode kept = value(level);
    long end = parser.currentLocation().getByteOffset();
    if (end - start
        > maxStringLength()) { // a string longer than the limit needs at least as many bytes
      measureStrings((int) start, (int) (end - start));
    }
    return kept;
  }

  /** The value at the current token with what {@code keep} keeps of it; an array's elements each the same. */
  private JsonNode value(Projection.Level keep) throws IOException {
    switch (parser.currentToken()) {
      case START_OBJECT -> {
        ObjectNode object = nodes.objectNode();
        for (String name = nextName(); name != null; name = nextName()) {
          Projection.Level below = keep.field(name);
          next();
          if (below == null) {
            parser.skipChildren(); // nothing of it is built, so it takes no budget
          } else {
            put(object, name, value(below));
          }
        }
        return object;
      }
      case START_ARRAY -> {
        ArrayNode array = nodes.arrayNode();
        while (next() != JsonToken.END_ARRAY) {
          array.add(value(keep));
        }
        return array;
      }
      case VALUE_STRING -> {
        return nodes.textNode(parser.getText());
      }
      case VALUE_NUMBER_INT -> {
        // as readTree: the smallest of int, long and BigInteger that holds it
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

  /** Adds a field; a name the object already has is refused (the lookup is the insertion's own). */
  private void put(ObjectNode object, String name, JsonNode value) throws JsonParseException {
    if (object.replace(name, value) != null) {
      throw new JsonParseException(parser, "Duplicate field '" + name + "'");
    }
  }

  private JsonToken next() throws IOException {
    return spend(parser.nextToken());
  }

  /** The next field name, or null at the end of the object. */
  private String nextName() throws IOException {
    String name = parser.nextFieldName();
    spend(parser.currentToken());
    return name;
  }

  private JsonToken spend(JsonToken token) throws TreeTooLargeException {
    if (token == null || token.isStructEnd()) {
      return token;
    }
    spent += token.isStructStart() ? CONTAINER : VALUE;
    boolean every = ++tokens % CHECK_EVERY == 0;
    if (every) {
      WorkDeadline.check(); // a call given up on stops here, not at the end of its body
    }
    if (spent > budget
        || (every && spent > allowance + bytesPerByte * parser.currentLocation().getByteOffset())) {
      throw new TreeTooLargeException(
          "request of "
              + body.length
              + " bytes has too many objects, arrays or values"
              + " for its size: its tree would take more than "
              + budget
              + " bytes");
    }
    return token;
  }

  /** Reads every string of {@code length} bytes from {@code offset}, which the tokenizer holds to its limit. */
  private void measureStrings(int offset, int length) throws IOException {
    try (JsonParser strings = JsonTrees.MAPPER.createParser(body, offset, length)) {
      for (JsonToken token = strings.nextToken(); token != null; token = strings.nextToken()) {
        if (token == JsonToken.VALUE_STRING) {
          strings.getTextLength();
        }
      }
    }
  }

  private int maxStringLength() {
    return parser.streamReadConstraints().getMaxStringLength();
  }
}

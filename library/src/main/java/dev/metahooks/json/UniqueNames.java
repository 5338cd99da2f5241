package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Refuses a field name written twice in one object, in the parts of a request that are built and in the parts that
 * are skipped alike: two values for one key make a request ambiguous. Jackson's own check
 * ({@code STRICT_DUPLICATE_DETECTION}) allocates a set for every object of three or more fields, 1.7 bytes per byte
 * of a Kubernetes request; here each nesting level keeps one list of names, reused from object to object, and only
 * an object of many fields (a large map) fills a set, reused too.
 */
public final class UniqueNames extends JsonParserDelegate {
  /** Up to this many fields an object's names are compared one by one; beyond, they go into a hash set. */
  private static final int LISTED = 16;

  /** The names seen so far in the objects open at each level, outermost first. */
  private final List<Level> levels = new ArrayList<>();

  private int depth;

  public UniqueNames(JsonParser parser) {
    super(parser);
  }

  @Override
  public JsonToken nextToken() throws IOException {
    JsonToken token = delegate.nextToken();
    if (token == JsonToken.FIELD_NAME) {
      levels.get(depth - 1).add(delegate.currentName(), this);
    } else if (token == JsonToken.START_OBJECT) {
      if (depth == levels.size()) {
        levels.add(new Level());
      }
      levels.get(depth++).clear();
    } else if (token == JsonToken.END_OBJECT) {
      depth--;
    }
    return token;
  }

  // Every other way to move on goes through nextToken, so that no name passes unseen.

  @Override
  public String nextFieldName() throws IOException {
    return nextToken() == JsonToken.FIELD_NAME ? delegate.currentName() : null;
  }

  @Override
  public boolean nextFieldName(SerializableString name) throws IOException {
    return nextToken() == JsonToken.FIELD_NAME && name.getValue().equals(delegate.currentName());
  }

  @Override
  public JsonToken nextValue() throws IOException {
    JsonToken token = nextToken();
    return token == JsonToken.FIELD_NAME ? nextToken() : token;
  }

  @Override
  public String nextTextValue() throws IOException {
    return nextToken() == JsonToken.VALUE_STRING ? delegate.getText() : null;
  }

  @Override
  public int nextIntValue(int defaultValue) throws IOException {
    return nextToken() == JsonToken.VALUE_NUMBER_INT ? delegate.getIntValue() : defaultValue;
  }

  @Override
  public long nextLongValue(long defaultValue) throws IOException {
    return nextToken() == JsonToken.VALUE_NUMBER_INT ? delegate.getLongValue() : defaultValue;
  }

  @Override
  public Boolean nextBooleanValue() throws IOException {
    JsonToken token = nextToken();
    return token == JsonToken.VALUE_TRUE
        ? Boolean.TRUE
        : token == JsonToken.VALUE_FALSE ? Boolean.FALSE : null;
  }

  @Override
  public JsonParser skipChildren() throws IOException {
    JsonToken token = delegate.currentToken();
    if (token != JsonToken.START_OBJECT && token != JsonToken.START_ARRAY) {
      return this;
    }
    for (int open = 1; open > 0; ) {
      token = nextToken();
      if (token == null) {
        return this; // the end of a body cut short: the next read says so
      }
      if (token.isStructStart()) {
        open++;
      } else if (token.isStructEnd()) {
        open--;
      }
    }
    return this;
  }

  /** The names of one open object. */
  private static final class Level {
    private String[] listed = new String[LISTED];
    private int count;
    private Set<String> many;

    void clear() {
      Arrays.fill(listed, 0, count, null);
      count = 0;
      if (many != null) {
        many.clear();
      }
    }

    void add(String name, JsonParser parser) throws JsonParseException {
      if (count < LISTED) {
        for (int i = 0; i < count; i++) {
          if (listed[i].equals(name)) {
            throw duplicate(name, parser);
          }
        }
        listed[count++] = name;
        return;
      }
      if (many == null) {
        many = new HashSet<>();
      }
      if (many.isEmpty()) {
        many.addAll(Arrays.asList(listed));
      }
      if (!many.add(name)) {
        throw duplicate(name, parser);
      }
    }

    private static JsonParseException duplicate(String name, JsonParser parser) {
      return new JsonParseException(parser, "Duplicate field '" + name + "'");
    }
  }
}

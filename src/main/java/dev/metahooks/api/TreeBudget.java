package dev.metahooks.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;

/**
 * Counts what the tree of a parse will take while it is parsed, and stops the parse past a budget: a body within
 * the size limit can still be made of nothing but structure (each {@code []} of three bytes becomes a node of about
 * fifty), and such a body would fill the heap long before the parse ended. The estimate is the one that matches
 * real trees ({@link CompactFields}, shared short strings): 80 bytes per object or array, 24 per name or value.
 */
final class TreeBudget extends JsonParserDelegate {
  private static final int CONTAINER = 80;
  private static final int VALUE = 24;

  private final long budget;
  private final long bodyBytes;
  private long spent;

  TreeBudget(JsonParser parser, long budget, long bodyBytes) {
    super(parser);
    this.budget = budget;
    this.bodyBytes = bodyBytes;
  }

  @Override
  public JsonToken nextToken() throws IOException {
    return spend(delegate.nextToken());
  }

  @Override
  public JsonToken nextValue() throws IOException {
    return spend(delegate.nextValue());
  }

  @Override
  public String nextFieldName() throws IOException {
    String name = delegate.nextFieldName();
    spend(delegate.currentToken());
    return name;
  }

  private JsonToken spend(JsonToken token) throws Json.TreeTooLargeException {
    if (token == null || token.isStructEnd()) {
      return token;
    }
    spent += token.isStructStart() ? CONTAINER : VALUE;
    if (spent > budget) {
      throw new Json.TreeTooLargeException("request of " + bodyBytes + " bytes has too many objects, arrays or values"
          + " for its size: its tree would take more than " + budget + " bytes");
    }
    return token;
  }
}

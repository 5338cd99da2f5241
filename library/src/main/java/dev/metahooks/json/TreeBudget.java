package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;

/**
 * Counts what the tree of a parse will take while it is parsed, and stops the parse past a budget: a body within
 * the size limit can still be made of nothing but structure (each {@code []} of three bytes becomes a node of about
 * fifty), and such a body would fill the heap long before the parse ended. The estimate is the one that matches
 * real trees ({@link CompactFields}, shared short strings): 80 bytes per object or array, 24 per name or value.
 *
 * <p>The budget is {@code allowance + bytesPerByte × body}, and it is also held to the bytes read so far, so that a
 * body of nothing but structure is refused after its first few kilobytes, not after its tree has grown to the
 * whole budget (real requests are even: their estimate never runs ahead of their bytes by a megabyte).
 */
public final class TreeBudget extends JsonParserDelegate {
  private static final int CONTAINER = 80;
  private static final int VALUE = 24;

  /**
   * How often (in tokens) the estimate is held to the bytes read (finding the offset costs an allocation) and the
   * call's {@link WorkDeadline} is looked at.
   */
  private static final int CHECK_EVERY = 1024;

  private final long allowance;
  private final double bytesPerByte;
  private final long budget;
  private final long bodyBytes;
  private long spent;
  private int tokens;

  public TreeBudget(JsonParser parser, long allowance, double bytesPerByte, long bodyBytes) {
    super(parser);
    this.allowance = allowance;
    this.bytesPerByte = bytesPerByte;
    this.budget = allowance + (long) (bytesPerByte * bodyBytes);
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

  /**
   * Skips without spending: nothing is built. The tokenizer still holds a skipped part to its limits on nesting,
   * names and numbers, but passes over a string without reading it; so in a body large enough to hold a string
   * over the length limit, each skipped string is measured, and a request is refused whatever of it is skipped,
   * as a whole parse refuses it.
   */
  @Override
  public JsonParser skipChildren() throws IOException {
    JsonToken token = delegate.currentToken();
    if (bodyBytes <= delegate.streamReadConstraints().getMaxStringLength() || token == null) {
      delegate.skipChildren();
      return this;
    }
    for (int depth = 0; ; token = delegate.nextToken()) {
      if (token == null) {
        return this; // the end of a body cut short: the next read says so
      }
      if (token == JsonToken.VALUE_STRING) {
        delegate.getTextLength();
      } else if (token.isStructStart()) {
        depth++;
      } else if (token.isStructEnd()) {
        depth--;
      }
      if (depth == 0) {
        return this;
      }
    }
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
        || (every
            && spent > allowance + bytesPerByte * delegate.currentLocation().getByteOffset())) {
      throw new TreeTooLargeException(
          "request of "
              + bodyBytes
              + " bytes has too many objects, arrays or values"
              + " for its size: its tree would take more than "
              + budget
              + " bytes");
    }
    return token;
  }
}

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
  /** How often (in tokens) the estimate is held to the bytes read: finding the offset costs an allocation. */
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

  private JsonToken spend(JsonToken token) throws TreeTooLargeException {
    if (token == null || token.isStructEnd()) {
      return token;
    }
    spent += token.isStructStart() ? CONTAINER : VALUE;
    if (spent > budget || (++tokens % CHECK_EVERY == 0
        && spent > allowance + bytesPerByte * delegate.currentLocation().getByteOffset())) {
      throw new TreeTooLargeException("request of " + bodyBytes + " bytes has too many objects, arrays or values"
          + " for its size: its tree would take more than " + budget + " bytes");
    }
    return token;
  }
}

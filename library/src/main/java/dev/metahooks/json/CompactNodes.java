package dev.metahooks.json;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Jackson's node factory, with objects whose fields take a third of the memory ({@link CompactFields}) and,
 * inside {@link #sharingText}, one node for each distinct short string (text nodes are immutable): short values
 * repeat throughout a large request ("True", "Running", a namespace).
 */
public final class CompactNodes extends JsonNodeFactory {
  private static final long serialVersionUID = 1L;
  private static final int SHARED_TEXT_LENGTH = 24;
  private static final ThreadLocal<Map<String, TextNode>> SHARED_TEXT = new ThreadLocal<>();

  public static final CompactNodes INSTANCE = new CompactNodes();

  private CompactNodes() {}

  /** What {@link #sharingText} runs: a parse. */
  public interface Read<T> {
    T read() throws IOException;
  }

  /** Runs {@code read} with short strings shared among the text nodes it makes on this thread. */
  public static <T> T sharingText(Read<T> read) throws IOException {
    SHARED_TEXT.set(new HashMap<>(1 << 16));
    try {
      return read.read();
    } finally {
      SHARED_TEXT.remove();
    }
  }

  @Override
  public ObjectNode objectNode() {
    return new CompactObjectNode(this, new CompactFields());
  }

  @Override
  public TextNode textNode(String text) {
    Map<String, TextNode> shared = SHARED_TEXT.get();
    if (shared == null || text == null || text.length() > SHARED_TEXT_LENGTH) {
      return super.textNode(text);
    }
    TextNode node = shared.get(text);
    if (node == null) {
      node = super.textNode(text);
      shared.put(text, node);
    }
    return node;
  }
}

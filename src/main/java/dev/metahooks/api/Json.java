package dev.metahooks.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson configuration of the service: strict on input, compact and stable on output. */
public final class Json {
  /**
   * Limits on what one request may contain. Kubernetes objects are shallow and their strings short except
   * annotations such as last-applied-configuration; these bounds are far above any real request and far
   * below what would exhaust the heap or the stack.
   */
  public static final StreamReadConstraints READ_CONSTRAINTS = StreamReadConstraints.builder()
      .maxNestingDepth(200)
      .maxNumberLength(100)
      .maxStringLength(16 * 1024 * 1024)
      .maxNameLength(64 * 1024)
      .build();

  /**
   * Short string values repeat throughout a request ("True", "Running", a namespace): in a large request they are
   * shared within one parse, which makes its tree a third smaller for a tenth more parsing time. Below
   * {@link #SHARED_TEXT_BODY} bytes the tree is small anyway and the time is worth more.
   */
  private static final int SHARED_TEXT_LENGTH = 24;
  private static final int SHARED_TEXT_BODY = 16 * 1024 * 1024;
  private static final ThreadLocal<Map<String, TextNode>> SHARED_TEXT = new ThreadLocal<>();

  /**
   * Jackson's node factory, with objects whose fields take a third of the memory ({@link CompactFields}) and,
   * while {@link #parse} runs, one node for each distinct short string (text nodes are immutable).
   */
  private static final JsonNodeFactory NODES = new JsonNodeFactory() {
    private static final long serialVersionUID = 1L;

    @Override
    public ObjectNode objectNode() {
      return new ObjectNode(this, new CompactFields());
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
  };

  public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(READ_CONSTRAINTS)
          .build())
      .nodeFactory(NODES)
      // Two values for one key would make the request ambiguous: refuse instead of guessing.
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private static final ObjectReader READER = MAPPER.reader();

  private Json() {}

  private interface Read {
    JsonNode read() throws IOException;
  }

  /**
   * Parses a whole request the way the server does: a tree as {@code MAPPER.readTree} gives it; in a large
   * request, repeated short strings share one node.
   *
   * @return the tree, or a missing node for an empty body
   */
  public static JsonNode parse(byte[] body) throws IOException {
    return body.length < SHARED_TEXT_BODY ? READER.readTree(body) : sharingText(() -> READER.readTree(body));
  }

  /** As {@link #parse(byte[])}, from a stream of unknown length: no sharing. */
  public static JsonNode parse(InputStream body) throws IOException {
    return READER.readTree(body);
  }

  private static JsonNode sharingText(Read read) throws IOException {
    SHARED_TEXT.set(new HashMap<>(1 << 16));
    try {
      return read.read();
    } finally {
      SHARED_TEXT.remove();
    }
  }

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }
}

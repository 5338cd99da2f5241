package dev.metahooks.api;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.io.InputStream;

/**
 * The service's Jackson configuration, strict on input (no duplicate keys, no trailing tokens, bounded sizes),
 * compact and stable on output, for a controller's own JSON. Its reader and writer are immutable; the mapper
 * behind them is never handed out, so that no code can change how the server reads requests and writes answers:
 * {@link #mapper()} is a copy to configure as you like.
 */
public final class Json {
  /**
   * Limits on what one request may contain. Kubernetes objects are shallow and their strings short except
   * annotations such as last-applied-configuration; these bounds are far above any real request and far
   * below what would exhaust the heap or the stack.
   */
  public static final StreamReadConstraints READ_CONSTRAINTS = JsonTrees.READ_CONSTRAINTS;

  /** The most tree a parse may build per byte of body, with an allowance on top for small requests. */
  public static final double TREE_BYTES_PER_BODY_BYTE = JsonTrees.TREE_BYTES_PER_BODY_BYTE;

  private Json() {}

  /** The server's reader: immutable, reads as a request is read (duplicate keys and trailing tokens refused). */
  public static ObjectReader reader() {
    return JsonTrees.reader();
  }

  /** The server's writer: immutable, writes as an answer is written. */
  public static ObjectWriter writer() {
    return JsonTrees.MAPPER.writer();
  }

  /** A copy of the server's mapper, its own to configure: changing it changes nothing the server does. */
  public static ObjectMapper mapper() {
    return JsonTrees.MAPPER.copy();
  }

  /**
   * Parses a whole request the way the server does: a tree as {@code reader().readTree} gives it; in a large
   * request, repeated short strings share one node.
   *
   * @param body the request's bytes
   * @return the tree, or a missing node for an empty body
   * @throws IOException when the body is not JSON, has a duplicate key or is more tree than a request may be
   */
  public static JsonNode parse(byte[] body) throws IOException {
    return JsonTrees.parse(body);
  }

  /**
   * As {@link #parse(byte[])}, from a stream read whole first.
   *
   * @param body the request
   * @return the tree, or a missing node for an empty body
   * @throws IOException as {@link #parse(byte[])}, or when the stream fails
   */
  public static JsonNode parse(InputStream body) throws IOException {
    return parse(body.readAllBytes());
  }

  /** A new empty object, of the server's node factory. */
  public static ObjectNode object() {
    return JsonTrees.MAPPER.createObjectNode();
  }

  /** A new empty array, of the server's node factory. */
  public static ArrayNode array() {
    return JsonTrees.MAPPER.createArrayNode();
  }

  /**
   * The server's node factory, for the values {@link #object()} and {@link #array()} do not make: numbers, strings,
   * booleans and null, built as a parse of a request would build them.
   */
  public static JsonNodeFactory nodes() {
    return JsonTrees.MAPPER.getNodeFactory();
  }
}

package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes the trees of an answer with each shared subtree's bytes made once. Children built from one template hold
 * the same container, volume and affinity nodes ({@code kube.PathCopies}): ten thousand Pods, one node each. A
 * subtree met a first time is written as usual; met a second time in the same answer (the same node, by identity),
 * it is written once more into bytes kept for the rest of the answer, and every further occurrence copies those
 * bytes into the output. An equal but distinct node is simply written again.
 *
 * <p>The bytes are Jackson's: containers are written with the generator's own calls, values with their own
 * {@code serialize}, and a splice is what the node wrote in a generator of the same settings. Anything else (pretty
 * printing, a writer of characters, trimmed or sorted fields, node classes of other libraries) is left to
 * Jackson's own code. A tree must not change while it is written, which holds for an answer: it is written once
 * the hook has returned.
 */
public final class SharedSubtrees extends StdSerializer<JsonNode> {
  private static final long serialVersionUID = 1L;

  /** The mark of a node written once so far. */
  private static final Object ONCE = new Object();

  private final transient JsonFactory factory;

  private SharedSubtrees(JsonFactory factory) {
    super(JsonNode.class);
    this.factory = factory;
  }

  /** A copy of {@code mapper} that writes the trees in its values this way. */
  public static ObjectMapper writing(ObjectMapper mapper) {
    ObjectMapper copy = mapper.copy();
    return copy.registerModule(
        new SimpleModule("shared-subtrees")
            .addSerializer(JsonNode.class, new SharedSubtrees(copy.getFactory())));
  }

  @Override
  public void serialize(JsonNode node, JsonGenerator generator, SerializerProvider provider)
      throws IOException {
    if (!(generator instanceof UTF8JsonGenerator)
        || generator.getPrettyPrinter() != null
        || !CompactObjectNode.plain(provider)) {
      node.serialize(generator, provider);
      return;
    }
    Occurrences occurrences = (Occurrences) provider.getAttribute(Occurrences.class);
    if (occurrences == null) { // one per answer: every tree of it counts alike
      occurrences = new Occurrences(factory);
      provider.setAttribute(Occurrences.class, occurrences);
    }
    occurrences.write(node, generator, provider);
  }

  @Override
  public void serializeWithType(
      JsonNode node, JsonGenerator generator, SerializerProvider provider, TypeSerializer types)
      throws IOException {
    node.serializeWithType(generator, provider, types);
  }

  @Override
  public boolean isEmpty(SerializerProvider provider, JsonNode node) {
    return ((JsonSerializable.Base) node)
        .isEmpty(provider); // as Jackson's serializer of JsonSerializable says
  }

  /** The containers of one answer met so far: {@link #ONCE}, or their bytes once met twice. */
  private static final class Occurrences {
    private final Map<JsonNode, Object> seen = new IdentityHashMap<>();
    private final JsonFactory factory;
    private Pass answer;

    Occurrences(JsonFactory factory) {
      this.factory = factory;
    }

    void write(JsonNode node, JsonGenerator generator, SerializerProvider provider)
        throws IOException {
      if (answer == null || answer.generator != generator) {
        answer = new Pass(generator, provider, false);
      }
      answer.write(node);
    }

    /**
     * Writing into one generator: the answer's, or ({@code rendering}) a splice's, which uses the splices made
     * so far and marks nothing new.
     */
    private final class Pass implements CompactFields.ValueWriter {
      private final JsonGenerator generator;
      private final SerializerProvider provider;
      private final boolean rendering;

      Pass(JsonGenerator generator, SerializerProvider provider, boolean rendering) {
        this.generator = generator;
        this.provider = provider;
        this.rendering = rendering;
      }

      @Override
      public void write(JsonNode node) throws IOException {
        Class<?> type = node.getClass();
        boolean ours =
            type == CompactObjectNode.class || type == ObjectNode.class || type == ArrayNode.class;
        if (!ours || node.isEmpty()) {
          node.serialize(generator, provider);
          return;
        }
        Object mark = seen.get(node);
        if (mark instanceof Splice splice) {
          generator.writeRawValue(splice);
        } else if (rendering) { // inside a splice: met once before, written out as part of it
          writeContainer(node);
        } else if (mark == null) {
          seen.put(node, ONCE);
          writeContainer(node);
        } else {
          Splice splice = render(node);
          seen.put(node, splice);
          generator.writeRawValue(splice);
        }
      }

      private void writeContainer(JsonNode node) throws IOException {
        if (node instanceof CompactObjectNode object) {
          generator.writeStartObject(object, object.size());
          object.writeFields(generator, this);
          generator.writeEndObject();
        } else if (node instanceof ObjectNode object) {
          generator.writeStartObject(object, object.size());
          for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            generator.writeFieldName(field.getKey());
            write(field.getValue());
          }
          generator.writeEndObject();
        } else {
          int size = node.size();
          generator.writeStartArray(node, size);
          for (int i = 0; i < size; i++) {
            write(node.get(i));
          }
          generator.writeEndArray();
        }
      }

      /** The node's bytes as this pass's generator writes them: the same features and escapes. */
      private Splice render(JsonNode node) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        try (JsonGenerator into = factory.createGenerator((OutputStream) bytes)) {
          into.overrideStdFeatures(generator.getFeatureMask(), -1);
          into.overrideFormatFeatures(generator.getFormatFeatures(), -1);
          into.setCharacterEscapes(generator.getCharacterEscapes());
          into.setHighestNonEscapedChar(generator.getHighestEscapedChar());
          new Pass(into, provider, true).writeContainer(node);
        }
        return new Splice(bytes.toByteArray());
      }
    }
  }

  /** A subtree's bytes, UTF-8, as the generator copies them in. */
  private static final class Splice implements SerializableString {
    private final byte[] utf8;

    Splice(byte[] utf8) {
      this.utf8 = utf8;
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
      if (offset + utf8.length > buffer.length) {
        return -1; // the generator then writes asUnquotedUTF8() past its buffer
      }
      System.arraycopy(utf8, 0, buffer, offset, utf8.length);
      return utf8.length;
    }

    @Override
    public byte[] asUnquotedUTF8() {
      return utf8;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
      out.write(utf8);
      return utf8.length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
      if (buffer.remaining() < utf8.length) {
        return -1;
      }
      buffer.put(utf8);
      return utf8.length;
    }

    // A generator of UTF-8 asks only for the bytes above; the rest of the interface, as text, for
    // completeness.
    @Override
    public String getValue() {
      return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
      return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
      throw new UnsupportedOperationException("a splice is raw JSON, never quoted");
    }

    @Override
    public byte[] asQuotedUTF8() {
      throw new UnsupportedOperationException("a splice is raw JSON, never quoted");
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
      throw new UnsupportedOperationException("a splice is raw JSON, never quoted");
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
      throw new UnsupportedOperationException("a splice is raw JSON, never quoted");
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) {
      throw new UnsupportedOperationException("a splice is raw JSON, never quoted");
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
      throw new UnsupportedOperationException("a splice is raw JSON, never quoted");
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
      String text = getValue();
      if (offset + text.length() > buffer.length) {
        return -1;
      }
      text.getChars(0, text.length(), buffer, offset);
      return text.length();
    }
  }
}

package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * An object node over {@link CompactFields} that writes its fields straight from them. Only the plain case is
 * written here (nothing trimmed, nothing sorted, which is how metahooks' mapper writes); any other configuration
 * is Jackson's own code.
 */
final class CompactObjectNode extends ObjectNode {
  private static final long serialVersionUID = 1L;
  private final CompactFields fields;

  CompactObjectNode(CompactNodes nodes, CompactFields fields) {
    super(nodes, fields);
    this.fields = fields;
  }

  /** Whether {@code provider} writes objects plainly: every field, in insertion order, empty arrays included. */
  static boolean plain(SerializerProvider provider) {
    return provider != null
        && provider.isEnabled(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS)
        && provider.isEnabled(JsonNodeFeature.WRITE_NULL_PROPERTIES)
        && !provider.isEnabled(JsonNodeFeature.WRITE_PROPERTIES_SORTED);
  }

  /** Writes the fields, each value with {@code values}. */
  void writeFields(JsonGenerator generator, CompactFields.ValueWriter values) throws IOException {
    fields.writeFields(generator, values);
  }

  @Override
  public void serialize(JsonGenerator generator, SerializerProvider provider) throws IOException {
    if (!plain(provider)) {
      super.serialize(generator, provider);
      return;
    }
    generator.writeStartObject(this, fields.size());
    fields.writeFields(generator, value -> value.serialize(generator, provider));
    generator.writeEndObject();
  }
}

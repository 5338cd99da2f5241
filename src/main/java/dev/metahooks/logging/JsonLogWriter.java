package dev.metahooks.logging;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.slf4j.event.KeyValuePair;

/** Formats one event as one JSON line: time, level, logger, thread, message, the event's fields, error. */
final class JsonLogWriter {
  private static final JsonFactory JSON = new JsonFactory();
  private final PrintStream out;

  JsonLogWriter(PrintStream out) {
    this.out = out;
  }

  void write(String level, String logger, String message, List<KeyValuePair> pairs, Throwable error) {
    StringWriter line = new StringWriter(256);
    try (JsonGenerator json = JSON.createGenerator(line)) {
      json.writeStartObject();
      json.writeStringField("time", Instant.now().toString());
      json.writeStringField("level", level);
      json.writeStringField("logger", logger);
      json.writeStringField("thread", Thread.currentThread().getName());
      json.writeStringField("message", message);
      for (KeyValuePair pair : pairs) {
        writeValue(json, pair.key, pair.value);
      }
      if (error != null) {
        json.writeStringField("error", error.getClass().getName() + ": " + error.getMessage());
        StringWriter stack = new StringWriter();
        error.printStackTrace(new PrintWriter(stack));
        json.writeStringField("stack", stack.toString());
      }
      json.writeEndObject();
    } catch (IOException e) {
      return; // a StringWriter does not fail; nothing sensible to log about logging
    }
    out.println(line);
  }

  private static void writeValue(JsonGenerator json, String key, Object value) throws IOException {
    if (value == null) {
      json.writeNullField(key);
    } else if (value instanceof Integer || value instanceof Long) {
      json.writeNumberField(key, ((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      json.writeNumberField(key, ((Number) value).doubleValue());
    } else if (value instanceof Boolean b) {
      json.writeBooleanField(key, b);
    } else {
      json.writeStringField(key, value.toString());
    }
  }
}

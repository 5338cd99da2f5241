package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The fields of one JSON object, in insertion order, as {@link LinkedHashMap} keeps them, in a third of the
 * memory for the small objects Kubernetes is made of (metadata, a container, a condition, a managedFields
 * entry): two arrays searched in order instead of a hash table and one node per field. An object that grows
 * beyond {@value #SMALL} fields moves into a {@link LinkedHashMap}, so lookups in the large ones (the object
 * maps of a request, 10,000 Pods under one key) stay constant-time.
 *
 * <p>A sync request is held whole as a tree while the hook runs; with Jackson's default maps a 39 MB request
 * takes 200 MB of heap, more than half of it hash tables of objects with three fields.
 */
final class CompactFields extends AbstractMap<String, JsonNode> {
  static final int SMALL = 12;
  private static final String[] NO_KEYS = {};
  private static final JsonNode[] NO_VALUES = {};

  private String[] keys;
  private JsonNode[] values;
  private int size;

  /** All the fields once there are more than {@link #SMALL}; then the arrays are no longer used. */
  private LinkedHashMap<String, JsonNode> large;

  private int modifications;

  CompactFields() { // empty objects are common ("." in managedFields): arrays come with the first
    // field
    keys = NO_KEYS;
    values = NO_VALUES;
  }

  private int indexOf(Object key) {
    if (size == 0) {
      return -1;
    }
    int hash =
        key.hashCode(); // cached in the String; parsed keys are canonical, so usually the same
    // reference
    for (int i = 0; i < size; i++) {
      String candidate = keys[i];
      if (candidate == key || (candidate.hashCode() == hash && candidate.equals(key))) {
        return i;
      }
    }
    return -1;
  }

  /** Writes a field's value: Jackson's own {@code serialize}, or {@link SharedSubtrees}' splicing. */
  interface ValueWriter {
    void write(JsonNode value) throws IOException;
  }

  /**
   * Writes the fields as Jackson's {@code ObjectNode} does, without the entry object its loop asks for each field:
   * one per field of a 10 MB answer is 10 MB allocated for nothing.
   */
  void writeFields(JsonGenerator generator, ValueWriter values) throws IOException {
    if (large != null) {
      for (Map.Entry<String, JsonNode> field : large.entrySet()) {
        generator.writeFieldName(field.getKey());
        values.write(field.getValue());
      }
      return;
    }
    for (int i = 0; i < size; i++) {
      generator.writeFieldName(keys[i]);
      values.write(this.values[i]);
    }
  }

  @Override
  public int size() {
    return large != null ? large.size() : size;
  }

  @Override
  public boolean isEmpty() {
    return size() == 0;
  }

  @Override
  public JsonNode get(Object key) {
    if (large != null) {
      return large.get(key);
    }
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public boolean containsKey(Object key) {
    return large != null ? large.containsKey(key) : indexOf(key) >= 0;
  }

  @Override
  public JsonNode put(String key, JsonNode value) {
    Objects.requireNonNull(key, "a JSON field name");
    if (large != null) {
      return large.put(key, value);
    }
    int i = indexOf(key);
    if (i >= 0) { // a replaced field keeps its place, as in LinkedHashMap
      JsonNode previous = values[i];
      values[i] = value;
      return previous;
    }
    modifications++;
    if (size == SMALL) {
      large = new LinkedHashMap<>(SMALL * 4);
      for (int j = 0; j < size; j++) {
        large.put(keys[j], values[j]);
      }
      large.put(key, value);
      keys = null;
      values = null;
      size = 0;
      return null;
    }
    if (size == keys.length) {
      int capacity = size == 0 ? 4 : SMALL; // one copy at most: growth costs more than the slots
      keys = Arrays.copyOf(keys, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    keys[size] = key;
    values[size] = value;
    size++;
    return null;
  }

  @Override
  public JsonNode remove(Object key) {
    if (large != null) {
      return large.remove(key);
    }
    int i = indexOf(key);
    if (i < 0) {
      return null;
    }
    JsonNode previous = values[i];
    removeAt(i);
    return previous;
  }

  private void removeAt(int i) {
    modifications++;
    int after = size - i - 1;
    System.arraycopy(keys, i + 1, keys, i, after);
    System.arraycopy(values, i + 1, values, i, after);
    size--;
    keys[size] = null;
    values[size] = null;
  }

  @Override
  public void clear() {
    modifications++;
    if (large != null) {
      large.clear();
      return;
    }
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(values, 0, size, null);
    size = 0;
  }

  @Override
  public Set<Map.Entry<String, JsonNode>> entrySet() {
    return large != null ? large.entrySet() : new Entries();
  }

  /** The fields while small; a view that fails fast if the object grows large meanwhile. */
  private final class Entries extends AbstractSet<Map.Entry<String, JsonNode>> {
    @Override
    public int size() {
      return CompactFields.this.size();
    }

    @Override
    public void clear() {
      CompactFields.this.clear();
    }

    @Override
    public Iterator<Map.Entry<String, JsonNode>> iterator() {
      if (large != null) {
        return large.entrySet().iterator();
      }
      return new Iterator<>() {
        private int next;
        private int last = -1;
        private int expected = modifications;

        @Override
        public boolean hasNext() {
          return next < size;
        }

        @Override
        public Map.Entry<String, JsonNode> next() {
          if (expected != modifications || large != null) {
            throw new ConcurrentModificationException();
          }
          if (next >= size) {
            throw new NoSuchElementException();
          }
          last = next++;
          return new Field(last);
        }

        @Override
        public void remove() {
          if (last < 0) {
            throw new IllegalStateException();
          }
          if (expected != modifications || large != null) {
            throw new ConcurrentModificationException();
          }
          removeAt(last);
          next = last;
          last = -1;
          expected = modifications;
        }
      };
    }
  }

  /** One field, writing through to the arrays. */
  private final class Field implements Map.Entry<String, JsonNode> {
    private final int index;
    private final String key;

    Field(int index) {
      this.index = index;
      this.key = keys[index];
    }

    @Override
    public String getKey() {
      return key;
    }

    @Override
    public JsonNode getValue() {
      return large == null && index < size && keys[index] == key
          ? values[index]
          : CompactFields.this.get(key);
    }

    @Override
    public JsonNode setValue(JsonNode value) {
      return CompactFields.this.put(key, value);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Map.Entry<?, ?> e
          && key.equals(e.getKey())
          && Objects.equals(getValue(), e.getValue());
    }

    @Override
    public int hashCode() {
      return key.hashCode() ^ Objects.hashCode(getValue());
    }

    @Override
    public String toString() {
      return key + "=" + getValue();
    }
  }
}
